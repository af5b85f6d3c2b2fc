"""Which CTAs of a cluster run an op, and which CTA an address mapped by `mapa` names.

One kernel body runs in every CTA of a cluster (PTX `.reqnctapercluster`, our
`tcgen05.cluster_dim`); the analysis follows it once, as any CTA. Two facts tie that one body to
the cluster: a branch on `%cluster_ctarank` runs its sides in some CTAs only, and `mapa a, r`
(PTX ISA "mapa") names the shared variable `a` of CTA `r`, so an mbarrier.arrive through it
arrives on CTA r's mbarrier, from every CTA that executes it (a remote arrive: the peer's
epilogue releasing the leader's accumulator stage). Ranks are evaluated per CTA from constants,
the rank register and integer arithmetic; anything else is unknown (None).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.dialects.nvvm_cluster import MapaOp
from tmem_dialect.passes.cfg import CFG, Node
from tmem_dialect.passes.int_eval import BINARY_BY_NAME, CASTS, COMPARISONS, apply_binary, bitwidth, compare

CTA_RANK = "nvvm.read.ptx.sreg.cluster.ctarank"
MAPA = MapaOp.name


def value_at_rank(value: SSAValue, rank: int, depth: int = 32) -> int | None:
    """The integer `value` takes in CTA `rank`, when only constants and the rank decide it (an
    i1 as 0 or 1)."""
    found = _value_at_rank(value, rank, depth)
    return found & 1 if found is not None and bitwidth(value.type) == 1 else found


def _value_at_rank(value: SSAValue, rank: int, depth: int) -> int | None:
    if (c := constant_int(value)) is not None:
        return c
    owner = value.owner
    if depth == 0 or not isinstance(owner, Operation):
        return None
    if owner.name == CTA_RANK:
        return rank
    if owner.name in CASTS and len(owner.operands) == 1:
        found = value_at_rank(owner.operands[0], rank, depth - 1)
        signed = owner.name in ("arith.extsi", "llvm.sext") and bitwidth(owner.operands[0].type) == 1
        return -found if found is not None and signed else found
    if len(owner.operands) != 2:
        return None
    a, b = (value_at_rank(v, rank, depth - 1) for v in owner.operands)
    width = bitwidth(owner.operands[0].type) or 64
    kind = BINARY_BY_NAME.get(owner.name)
    if kind == "and" and 0 in (a, b):
        return 0  # `is_mma & is_leader` is false in the peer, whatever the warp
    if kind == "or" and width == 1 and any(x not in (None, 0) for x in (a, b)):
        return 1
    if a is None or b is None:
        return None
    if kind is not None:
        found = apply_binary(kind, a, b, width)
        return int(found) if found is not None else None
    predicate = getattr(owner, "predicate", None)
    if owner.name in ("arith.cmpi", "llvm.icmp") and isinstance(predicate, IntegerAttr):
        return int(compare(COMPARISONS[predicate.value.data], a, b, width))
    return None


class ClusterRanks:
    """The CTA ranks (of `size`) that may run each node of one kernel's CFG."""

    def __init__(self, cfg: CFG, size: int, reaches: Callable[[Node, Node], bool]):
        self.cfg = cfg
        self.size = size
        self._reaches = reaches
        self._memo: dict[Node, frozenset[int]] = {}

    def running(self, op: Operation) -> frozenset[int]:
        """The ranks whose CTAs may execute `op`: all, less those a branch on the rank excludes."""
        node = self.cfg.node_of.get(op)
        if node is None:
            return frozenset(range(self.size))
        if node not in self._memo:
            ranks = set(range(self.size))
            for branch_node in self.cfg.controlling_branches(node):
                branch = branch_node.branch
                if branch is None or branch.condition is None:
                    continue
                senses = {e.sense for e in branch_node.succs if e.target is node or self._reaches(e.target, node)}
                if len(senses) != 1 or None in senses:
                    continue  # both ways reach it (a loop), or not a two-way decision
                (sense,) = senses
                ranks -= {r for r in range(self.size)
                          if (v := value_at_rank(branch.condition, r)) is not None and bool(v) is not sense}
            self._memo[node] = frozenset(ranks)
        return self._memo[node]


def mapa_rank(pointer: SSAValue, limit: int = 64) -> SSAValue | None:
    """The rank operand of the `mapa` an address is computed from (through GEPs, casts and
    offsets: the first operand of each), if any."""
    value = pointer
    for _ in range(limit):
        owner = value.owner
        if not isinstance(owner, Operation) or not owner.operands:
            return None
        if owner.name == MAPA:
            return owner.operands[1]
        value = owner.operands[0] if owner.name != "llvm.add" or constant_int(owner.operands[0]) is None \
            else owner.operands[1]
    return None
