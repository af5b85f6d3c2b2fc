"""CTA pairs: the cluster barrier before each cta_group::2 alloc and dealloc, and both CTAs reaching their halves.

TMEM_FACTS.md (allocation lifecycle, cta_group::2; PTX ISA "tcgen05.alloc"): one warp in each CTA
of the pair executes the same alloc or dealloc, and the peer CTA must be running, so a cluster
barrier (`barrier.cluster.arrive` + `barrier.cluster.wait`) comes before the pair alloc, and
another one after the allocation and before the pair dealloc (the peer may not have exited). The
interpreter checks the same facts on a run (`interpreter/lifecycle.py`: CLUSTER_BARRIER_MISSING,
PEER_MISMATCH); here they are decided on every path.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from tmem_dialect.diagnostics import error
from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import messages_warps as text
from tmem_dialect.passes.analysis.cluster_ranks import CTA_RANK
from tmem_dialect.passes.analysis.ops import reads_register
from tmem_dialect.passes.cfg import Edge, ForwardSolver, Node

PAIR_LIFECYCLE = (EffectKind.ALLOC, EffectKind.DEALLOC, EffectKind.RELINQUISH)

Seen = tuple[bool, bool]
"""(a cluster barrier completed since entry, ... since the last pair alloc) on one path."""

Paths = frozenset[tuple[frozenset[tuple[SSAValue, bool]], bool, bool]]
"""Per class of paths (the warp- or CTA-uniform branch outcomes it took, as the engine tracks
them): what it has seen. Two branches on one condition go the same way on a path, so a cluster
barrier under `scf.if %c` covers a pair alloc under another `scf.if %c`."""

MAX_PATH_CLASSES = 32


def pair_kind(effect: TMEMEffect | None) -> EffectKind | None:
    """The lifecycle kind of a cta_group::2 alloc, dealloc or relinquish (given its op's effect);
    None for anything else."""
    if effect is None or effect.cta_group != 2 or effect.kind not in PAIR_LIFECYCLE:
        return None
    return effect.kind


class PairRules:
    """After the fixpoint: cluster barriers around pair allocations, and both CTAs' halves."""

    def _check_static(self) -> None:
        super()._check_static()  # type: ignore[misc]
        pair_ops = [  # (each op with an effect has its OpInfo, in the node's op order)
            (info.op, kind) for node in self.cfg.nodes if self._node_masks.get(node, 0)  # type: ignore[attr-defined]
            for info in self.infos[node] if (kind := pair_kind(info.effect)) is not None  # type: ignore[attr-defined]
        ]
        if not pair_ops or any(e.cta_group == 1 for e in self.effects.values()):  # type: ignore[attr-defined]
            return  # no pairs, or a kernel mixing cta_groups (reported as such, kernel_checks)
        seen = self._cluster_barriers_seen()
        for op, kind in pair_ops:
            if kind is not EffectKind.RELINQUISH:
                self._check_cluster_barrier(op, kind, seen.get(op))
            self._check_both_ctas(op, kind, [other for other, k in pair_ops if k is kind and other is not op])

    def _cluster_barriers_seen(self) -> dict[Operation, Seen]:
        """For each pair op, whether a cluster wait completed before it on every path (a
        must-analysis over the engine's feasible edges, per class of correlated branch outcomes)."""
        at: dict[Operation, Seen] = {}
        feasible = self.solver.edge_state  # type: ignore[attr-defined]

        def transfer(node: Node, paths: Paths) -> Paths:
            out = set()
            for assume, ever, since_alloc in paths:
                for op in node.ops:
                    if op.name == "nvvm.cluster.wait":
                        ever = since_alloc = True
                    elif (kind := pair_kind(self.effects.get(op))) is not None:  # type: ignore[attr-defined]
                        previous = at.get(op, (True, True))
                        at[op] = (previous[0] and ever, previous[1] and since_alloc)
                        if kind is EffectKind.ALLOC:
                            since_alloc = False
                out.add((assume, ever, since_alloc))
            return frozenset(out)

        def edge(e: Edge, paths: Paths) -> Paths | None:
            if e not in feasible:
                return None  # no warp takes it (a constant condition, a split on the warp index)
            outcome = self._assumption(e)  # type: ignore[attr-defined]
            if outcome is None:
                return paths
            condition, sense = outcome
            kept = frozenset((assume | {outcome}, ever, since) for assume, ever, since in paths
                             if (condition, not sense) not in assume)
            return kept or None

        def join(a: Paths, b: Paths) -> Paths:
            merged: dict[frozenset, tuple[bool, bool]] = {}
            for assume, ever, since in a | b:
                old = merged.get(assume, (True, True))
                merged[assume] = (old[0] and ever, old[1] and since)
            if len(merged) > MAX_PATH_CLASSES:  # forget the correlation, keep the verdict sound
                common = frozenset.intersection(*merged)
                return frozenset({(common, all(e for e, _ in merged.values()),
                                   all(s for _, s in merged.values()))})
            return frozenset((assume, e, s) for assume, (e, s) in merged.items())

        ForwardSolver(self.cfg, frozenset({(frozenset(), False, False)}), transfer, edge, join).run()  # type: ignore[attr-defined]
        return at

    def _check_cluster_barrier(self, op: Operation, kind: EffectKind, seen: Seen | None) -> None:
        if seen is None:
            return
        ever, since_alloc = seen
        if kind is EffectKind.ALLOC and not ever:
            message = text.pair_alloc_unsynchronized(op.name)
        elif kind is EffectKind.DEALLOC and not since_alloc:
            message = text.pair_dealloc_unsynchronized(op.name)
        else:
            return
        self.findings.add(  # type: ignore[attr-defined]
            FindingKind.CLUSTER_BARRIER_MISSING, ("pair-cluster-barrier", op), error(op, message),
        )

    def _check_both_ctas(self, op: Operation, kind: EffectKind, others: list[Operation]) -> None:
        """A pair op under a branch on %cluster_ctarank runs in only some CTAs of the pair, unless
        the other way of that branch has its own such op (both CTAs then execute their halves)."""
        node = self.cfg.node_of.get(op)  # type: ignore[attr-defined]
        if node is None:
            return
        for branch_node in sorted(self.cfg.controlling_branches(node), key=lambda n: n.order):  # type: ignore[attr-defined]
            branch = branch_node.branch
            if branch is None or branch.condition is None:
                continue
            rank = reads_register(branch.condition, CTA_RANK)
            if rank is None or self._covered(branch_node, node, others):
                continue
            self.findings.add(  # type: ignore[attr-defined]
                FindingKind.PEER_MISMATCH, ("pair-one-cta", op),
                error(op, text.pair_in_one_cta(op.name, kind.value)).attach_note(text.the_branch(), branch.op)
                .attach_note(text.rank_read_here(), rank),
            )
            return

    def _covered(self, branch_node: Node, node: Node, others: list[Operation]) -> bool:
        """Another pair op of the same kind is decided by the same branch on a path exclusive of `node`."""
        for other in others:
            other_node = self.cfg.node_of.get(other)  # type: ignore[attr-defined]
            if (other_node is not None and branch_node in self.cfg.controlling_branches(other_node)  # type: ignore[attr-defined]
                    and not self._reaches(node, other_node) and not self._reaches(other_node, node)):  # type: ignore[attr-defined]
                return True
        return False
