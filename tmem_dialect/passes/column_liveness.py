"""Live ranges of TMEM buffers over a function's CFG: the ops at which each buffer's columns are in use.

A buffer is live at an op when some use of it can run before the op and some use can run after
it (both on one CFG path, the op itself included). A use inside a loop therefore makes the
buffer live across the whole loop (the back edge reaches every op of the body from the use and
the use from every op), and a ring of buffers selected by `i % N` in a loop lives as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Block, Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import Diagnostic, error
from tmem_dialect.dialects.interfaces import TMEMEffect, tmem_effect
from tmem_dialect.dialects.tcgen05_buffers import BufferAddressOp, BufferOp
from tmem_dialect.dialects.tcgen05_tiles import TMEMBufferType
from tmem_dialect.layout import TCOL, TLANE
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes import address_offsets
from tmem_dialect.passes.cfg import CFG, Node

ADDRESSED_KINDS = frozenset({EffectKind.LD, EffectKind.ST, EffectKind.MMA, EffectKind.CP, EffectKind.SHIFT})
"""The TMEM accesses a tcgen05.buffer_address may feed (not the allocation lifecycle)."""
ASYNC_KINDS = frozenset({EffectKind.MMA, EffectKind.CP, EffectKind.SHIFT})
"""Accesses complete only when a tcgen05.commit's mbarrier phase is observed (not at a wait::ld/st)."""

HALF_LANES = isa.LANES_PER_WARP // 2
"""A warp's lane quarter splits into two 16-lane halves; the 16-lane shapes start at either."""
HALVES = 2 * isa.WARPS_PER_WARPGROUP


@dataclass(frozen=True)
class Footprint:
    """Where a buffer sits relative to its address: columns [0, width) of some lane halves."""

    width: int
    halves: int
    """Bit 2q + h: the buffer touches half h (lanes 16h..16h+15) of lane quarter q."""
    lane_shifts: tuple[int, ...]
    """Lane offsets the planner may give the buffer's address: 0, and 16 for a layout in the
    low halves of the quarters (the M=64 layout): a warp keeps its own quarter either way, and
    the 16-lane shapes may start at lane 16 of it (isa.slab_lane_offsets)."""

    def halves_at(self, lane_shift: int) -> int:
        return self.halves << (lane_shift // HALF_LANES)


def footprint(buffer_type: TMEMBufferType) -> Footprint:
    layout = buffer_type.tile_layout
    coords = layout.shard_coords()
    lanes = np.unique(coords.get(TLANE, np.zeros(1, dtype=np.int64)))
    halves = 0
    for half in np.unique(lanes // HALF_LANES):
        halves |= 1 << int(half)
    low_only = all(not (halves >> (2 * q + 1)) & 1 for q in range(isa.WARPS_PER_WARPGROUP))
    shifts = (0, HALF_LANES) if low_only and int(lanes.max()) + HALF_LANES < isa.TMEM_LANES else (0,)
    return Footprint(max(layout.span(TCOL), 1), halves, shifts)


@dataclass(eq=False)
class BufferLife:
    """One tcgen05.buffer: its uses and the ops at which it is live."""

    op: BufferOp
    uses: list[Operation]
    """The ops that access the buffer: its tile ops, and the users of its buffer_address ops."""
    live: set[Operation] = field(default_factory=set[Operation])
    addresses: list[BufferAddressOp] = field(default_factory=list[BufferAddressOp])
    """Its tcgen05.buffer_address ops (their users are in `uses`)."""

    @property
    def no_reuse(self) -> bool:
        return self.op.no_reuse


@dataclass
class Liveness:
    cfg: CFG
    buffers: list[BufferLife]
    points: list[Operation]
    """Every op of the function's CFG, in the CFG's order: the program points."""

    def live_at(self, op: Operation) -> list[BufferLife]:
        return [b for b in self.buffers if b.no_reuse or op in b.live]

    def interfere(self, a: BufferLife, b: BufferLife) -> bool:
        """Whether the two buffers may need their columns at the same time."""
        if a.no_reuse or b.no_reuse:
            return True
        small, large = (a.live, b.live) if len(a.live) <= len(b.live) else (b.live, a.live)
        return any(op in large for op in small)


def _flows_on(user: Operation) -> bool:
    """Whether `user` passes the buffer on to other values (block arguments, results, calls)."""
    from xdsl.traits import IsTerminator

    return bool(
        user.successors
        or user.regions
        or user.has_trait(IsTerminator)
        or any(isinstance(r.type, TMEMBufferType) for r in user.results)
        or user.name in ("func.call", "llvm.call")
    )


def buffer_lives(function: Operation) -> Liveness | list[Diagnostic]:
    """The live ranges of the function's tcgen05.buffer ops, or why they cannot be computed."""
    buffers = [op for op in function.walk() if isinstance(op, BufferOp)]
    cfg = CFG(function)
    problems: list[Diagnostic] = []
    for op in cfg.unsupported:
        if any(isinstance(inner, BufferOp) or _uses_any(inner, buffers) for inner in op.walk()):
            problems.append(error(op, f"TMEM buffers used inside '{op.name}' cannot be planned: "
                                  "tmem-plan-columns does not know its control flow"))
    lives: list[BufferLife] = []
    for op in buffers:
        direct = [use.operation for use in op.result.uses]
        addresses = [u for u in direct if isinstance(u, BufferAddressOp)]
        uses = [u for u in direct if not isinstance(u, BufferAddressOp)]
        for address in addresses:
            for access in address_offsets.accesses(address.result):
                user = access.op
                effect = tmem_effect(user)
                if effect is None or effect.kind not in ADDRESSED_KINDS:
                    problems.append(
                        error(user, f"the TMEM address of a buffer flows on through '{user.name}'; "
                              "tmem-plan-columns needs every user of a tcgen05.buffer_address to "
                              "access TMEM at it (tcgen05.mma, tcgen05.cp, ...), directly or after "
                              "arith.addi of an offset")
                        .attach_note("the address is taken here", address)
                        .attach_note("the buffer is declared here", op)
                    )
                    continue
                if access.chain and (problem := _offset_error(op, address, access, effect)) is not None:
                    problems.append(problem)
                if user not in uses:
                    uses.append(user)
        for user in uses:
            if _flows_on(user):
                problems.append(
                    error(user, f"the TMEM buffer flows on through '{user.name}'; tmem-plan-columns "
                          "needs every use to name the tcgen05.buffer directly")
                    .attach_note("the buffer is declared here", op)
                )
            elif user not in cfg.node_of:
                problems.append(error(user, "this use of a TMEM buffer is unreachable or outside "
                                      "the function's control flow").attach_note("buffer", op))
        lives.append(BufferLife(op, uses, addresses=addresses))
    if problems:
        return problems
    order = list(function.walk())
    for life in lives:
        life.live = _live_ops(cfg, life.uses)
        if life.uses and (problem := _until_observed(order, cfg, life)) is not None:
            problems.append(problem)
    if problems:
        return problems
    points = [op for node in cfg.nodes for op in node.ops]
    return Liveness(cfg, lives, points)


def _offset_error(buffer: BufferOp, address: BufferAddressOp, access: address_offsets.Access,
                  effect: TMEMEffect) -> Diagnostic | None:
    """Why the access at the end of an arith.addi chain may leave the buffer, if it may."""
    def located(message: str) -> Diagnostic:
        return (error(access.chain[-1], message).attach_note("the access", access.op)
                .attach_note("the address is taken here", address)
                .attach_note("the buffer is declared here", buffer))

    if access.offset is None:
        return located("tmem-plan-columns cannot bound the offset added to this TMEM buffer's "
                       "address: each addend must be a constant, a shli by 16 or more (lanes) or a "
                       "value below 2^16 (columns) it bounds from constants, the thread id and loop "
                       "indices")
    lanes, columns = _covers(effect)
    layout = buffer.buffer_type.tile_layout
    spans = {"lane": max(layout.span(TLANE), 1), "column": max(layout.span(TCOL), 1)}
    for what, start, (lo, hi), width in (("lane", address.lane, access.offset.lanes, lanes),
                                         ("column", address.column, access.offset.columns, columns)):
        if start + lo < 0 or start + hi + width > spans[what]:
            return located(f"the '{access.op.name}' at this address may reach {what}s "
                           f"{start + lo} to {start + hi + width - 1} of the buffer, which spans "
                           f"{spans[what]} {what}s")
    return None


def _covers(effect: TMEMEffect) -> tuple[int, int]:
    """(lanes, columns) an access covers from its address: a cp or shift its extent, an ld/st its
    footprint, anything else (an mma's D, whose rows the instruction places) its first cell."""
    if effect.kind in (EffectKind.CP, EffectKind.SHIFT) and effect.extent is not None:
        return effect.extent
    fp = effect.footprint
    if fp is not None:
        return (max(h for _, h in fp.lane_ranges), max(h for _, h in fp.column_ranges))
    return 1, 1


def _until_observed(order: list[Operation], cfg: CFG, life: BufferLife) -> Diagnostic | None:
    """Keep a buffer whose last use is asynchronous (a tcgen05.mma reading or writing it, a cp
    into it) live until that access is known to be finished: at the first mbarrier wait after a
    tcgen05.commit that follows it (the commit's arrival tracks every prior async tcgen05 op of
    the thread, PTX ISA 9.7.16.6). Neither its columns nor the dealloc may come earlier. Without
    such a commit and wait, an error: freeing the columns would race with the access.

    Program order is the function's walk order (structured control flow), so this is a syntactic
    approximation; tmem-verify and the interpreter check the actual mbarrier protocol.
    """
    index = {op: k for k, op in enumerate(order)}
    last = max(life.uses, key=lambda o: index.get(o, -1))
    effect = tmem_effect(last)
    if effect is None or effect.kind not in ASYNC_KINDS:
        return None
    start = index[last]
    commit = next((k for k in range(start + 1, len(order)) if _kind(order[k]) is EffectKind.COMMIT), None)
    wait = None if commit is None else next(
        (k for k in range(commit + 1, len(order)) if _kind(order[k]) is EffectKind.MBARRIER_WAIT), None)
    if wait is None:
        return (
            error(last, f"the last use of this TMEM buffer is an asynchronous '{last.name}' that no "
                  "tcgen05.commit and mbarrier wait follow: tmem-plan-columns would free its columns "
                  "while it may still run; observe its commit's mbarrier phase after it (and read the "
                  "result there), or allocate this buffer by hand")
            .attach_note("the buffer is declared here", life.op)
        )
    life.live.update(o for o in order[start : wait + 1] if o in cfg.node_of)
    return None


def _kind(op: Operation) -> EffectKind | None:
    effect = tmem_effect(op)
    return None if effect is None else effect.kind


def _uses_any(op: Operation, buffers: list[BufferOp]) -> bool:
    results = {b.result for b in buffers}
    return any(o in results for o in op.operands)


def _reach(starts: set[Node], forward: bool) -> set[Node]:
    """Nodes reached from `starts` along at least one edge."""
    seen: set[Node] = set()
    stack = list(starts)
    while stack:
        node = stack.pop()
        nexts = [e.target for e in node.succs] if forward else [e.source for e in node.preds]
        for n in nexts:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def _live_ops(cfg: CFG, uses: list[Operation]) -> set[Operation]:
    use_nodes = {cfg.node_of[u] for u in uses}
    after_use = _reach(use_nodes, forward=True)  # entered after some use ran
    before_use = _reach(use_nodes, forward=False)  # left towards some use
    live: set[Operation] = set()
    use_set = set(uses)
    for node in after_use & before_use | use_nodes:
        positions = [i for i, op in enumerate(node.ops) if op in use_set]
        first = 0 if node in after_use else min(positions)
        last = len(node.ops) - 1 if node in before_use else max(positions)
        live.update(node.ops[first : last + 1])
    return live


def top_level_span(block: Block, ops: set[Operation]) -> tuple[int, int] | None:
    """Indices of the first and last op of `block` that is, or holds, one of `ops`."""
    index = {op: i for i, op in enumerate(block.ops)}
    found = []
    for op in ops:
        while op is not None and op not in index:
            op = op.parent_op()
        if op is not None:
            found.append(index[op])
    return (min(found), max(found)) if found else None
