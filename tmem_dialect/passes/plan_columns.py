"""tmem-plan-columns: allocate TMEM for a kernel's tcgen05.buffer ops, reusing the columns of dead buffers."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tmem_dialect import isa
from tmem_dialect.conventions import CTA_GROUP_ATTR
from tmem_dialect.diagnostics import Diagnostic, emit_all_or_raise, error
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.dialects.nvvm_sync import ClusterWaitOp
from tmem_dialect.dialects.tcgen05_buffers import BufferAddressOp, BufferOp
from tmem_dialect.kernel_checks import cta_group_uses, mixed_cta_groups
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes import address_offsets
from tmem_dialect.passes.column_assignment import Item, Plan, assign
from tmem_dialect.passes.column_liveness import (
    BufferLife,
    Liveness,
    buffer_lives,
    footprint,
    top_level_span,
)
from tmem_dialect.passes.column_materialize import Allocation, materialize, resolve_addresses

LEGAL_NCOLS = tuple(n for n in range(isa.NCOLS_MIN, isa.NCOLS_MAX + 1) if isa.ncols_error(n) is None)


def allocation_size(columns: int) -> int | None:
    """The smallest legal tcgen05.alloc nCols holding `columns` columns (None: none does)."""
    return next((n for n in LEGAL_NCOLS if n >= columns), None)


def column_alignment(life: BufferLife) -> int:
    """The column alignment the buffer's uses ask of its address.

    An op that needs one says so with a `tmem_column_alignment(operand) -> int` method, asked
    for the buffer (a tile op) or for the tcgen05.buffer_address value it takes. None does today:
    the PTX ISA states no column alignment for any TMEM address (isa.TMEM_COLUMN_ALIGNMENT has
    the sections read: "tcgen05.ld" / "tcgen05.st" with 9.7.16.2.3 "Data Movement Shape",
    9.7.16.8.3 "tcgen05.cp", 9.7.16.9.3 "tcgen05.shift" (a lane alignment: `lane_shifts`),
    9.7.16.10.5 "Data path layout organization" (the M=64 halves are a lane rule, the
    footprint's), 9.7.16.10.7 "Block Scaling" with its "Scale Factor A/B ID" subsections (scale
    factors duplicated into all four 32-lane partitions: a 128-lane buffer at lane 0; the ID
    picks bytes of a cell, not columns) and 9.7.16.10.9 "tcgen05.mma"). Triton's allocator
    aligns every buffer to 4 columns as a placeholder; we do not.
    """
    align = isa.TMEM_COLUMN_ALIGNMENT
    for use, value, _, _ in _accesses(life):
        ask = getattr(use, "tmem_column_alignment", None)
        if callable(ask):
            align = max(align, int(ask(value)))
    return align


def lane_shifts(life: BufferLife) -> tuple[int, ...]:
    """The lane offsets the planner may give the buffer: its footprint's (0, and 16 for a
    low-half layout), less those that put a use's lane off the alignment it asks with a
    `tmem_lane_alignment(operand) -> int` method (tcgen05.shift: 32, PTX ISA 9.7.16.9.3)."""
    shifts = footprint(life.op.buffer_type).lane_shifts
    for use, value, lane, _ in _accesses(life):
        align = _lane_alignment(use, value)
        shifts = tuple(s for s in shifts if (lane + s) % align == 0)
    return shifts


def _accesses(life: BufferLife) -> list[tuple[Operation, SSAValue, int, int]]:
    """Each access to the buffer: the op, the operand it takes, that operand's [lane, column] offset
    (through run-time offsets, the lowest it may take: passes/address_offsets.py)."""
    out: list[tuple[Operation, SSAValue, int, int]] = [(u, life.op.result, 0, 0) for u in life.uses
                                                       if life.op.result in u.operands]
    for address in life.addresses:  # at the end of an arith.addi chain, its lowest cell
        for access in address_offsets.accesses(address.result):
            offset = access.offset or address_offsets.Offset()
            out.append((access.op, access.value, address.lane + offset.lanes[0],
                        address.column + offset.columns[0]))
    return out


def _misaligned(life: BufferLife, align: int) -> Diagnostic | None:
    for use, value, _, column in _accesses(life):
        if column % align:
            return (error(use, f"this use needs a TMEM column aligned to {align}, but it takes "
                          f"column {column} of the buffer, which starts at an aligned column")
                    .attach_note("the buffer is declared here", life.op))
    if not lane_shifts(life):  # some use's lane is off its alignment even at lane shift 0
        use, value, lane, _ = next(a for a in _accesses(life) if a[2] % _lane_alignment(a[0], a[1]))
        return (error(use, f"this use needs a TMEM lane aligned to {_lane_alignment(use, value)}, "
                      f"but it takes lane {lane} of the buffer, which starts at lane 0 of a quarter")
                .attach_note("the buffer is declared here", life.op))
    return None


def _lane_alignment(use: Operation, value: SSAValue) -> int:
    ask = getattr(use, "tmem_lane_alignment", None)
    return int(ask(value)) if callable(ask) else 1


@dataclass
class Segment:
    """Buffers planned into one allocation, and the top-level ops they span."""

    lives: list[BufferLife]
    span: tuple[int, int]
    plan: Plan | None = None


@dataclass(frozen=True)
class TmemPlanColumnsPass(ModulePass):
    """Declare TMEM buffers with tcgen05.buffer; this pass places them in columns (dead buffers'
    columns reused), allocates the total as a power-of-2 nCols by warp 0, publishes the address
    and frees it after the last use."""

    name = "tmem-plan-columns"

    max_columns: int = isa.NCOLS_MAX
    """Cap on the columns of one allocation (a legal nCols at most this is the budget)."""
    multi_allocation: bool = False
    """Free early: one allocation per stretch of the kernel whose buffers are dead at its end,
    each no larger than the one before (the ISA's non-increasing rule), the last relinquishing."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        budget = max((n for n in LEGAL_NCOLS if n <= self.max_columns), default=None)
        if budget is None or self.max_columns > isa.NCOLS_MAX:
            emit_all_or_raise([error(None, f"tmem-plan-columns: max-columns must be in "
                                     f"[{isa.NCOLS_MIN}, {isa.NCOLS_MAX}], got {self.max_columns}")])
        assert budget is not None
        problems: list[Diagnostic] = []
        planned: list[tuple[Operation, list[Allocation]]] = []
        for function in op.walk():
            if not isinstance(function, func.FuncOp) or not any(
                isinstance(o, BufferOp) for o in function.walk()
            ):
                continue
            result = self.plan_function(function, budget)
            if isinstance(result, list) and result and isinstance(result[0], Diagnostic):
                problems.extend(result)  # type: ignore[arg-type]
            else:
                planned.append((function, result))  # type: ignore[arg-type]
        emit_all_or_raise(problems)  # all or nothing: a module with an unplannable kernel is untouched
        for function, allocations in planned:
            for unused in _unused(function):
                Rewriter.erase_op(unused)
            if allocations:
                materialize(function, allocations)
        for function in op.walk():  # the marking is the planner's: the allocation now says it
            if isinstance(function, func.FuncOp):
                function.attributes.pop(CTA_GROUP_ATTR, None)
        resolve_addresses(op)  # planned buffers' addresses, and those of hand-declared ones

    # ---- planning ------------------------------------------------------------------------------

    def plan_function(self, function: func.FuncOp, budget: int) -> list[Allocation] | list[Diagnostic]:
        blocks = list(function.body.blocks)
        if len(blocks) != 1:
            first = next(o for o in function.walk() if isinstance(o, BufferOp))
            return [error(first, "tmem-plan-columns plans functions whose body is one block "
                          f"(structured control flow); @{function.sym_name.data} has {len(blocks)}")]
        if problem := _hand_allocated(function):
            return [problem]
        group = kernel_cta_group(function)
        if isinstance(group, Diagnostic):
            return [group]
        liveness = buffer_lives(function)
        if isinstance(liveness, list):
            return liveness
        lives = [b for b in liveness.buffers if b.uses]
        if not lives:
            return []
        checks = [_misaligned(b, column_alignment(b)) for b in lives]
        if found := [d for d in checks if d is not None]:
            return found
        body = blocks[0]
        spans = {id(b): top_level_span(body, b.live) for b in lives}
        segments = [Segment(lives, _cover([spans[id(b)] for b in lives]))]
        if self.multi_allocation:
            segments = _segments(lives, spans)
        problems: list[Diagnostic] = []
        for seg in segments:
            seg.plan = _plan(liveness, seg.lives)
            if seg.plan.columns > budget:
                problems.append(_pressure_error(liveness, seg, budget, function))
        if problems:
            return problems
        segments = _non_increasing(liveness, segments)
        ops = list(body.ops)
        allocations = []
        for k, seg in enumerate(segments):
            assert seg.plan is not None
            ncols = allocation_size(max(seg.plan.columns, 1))
            assert ncols is not None
            # The first allocation opens the function (the kernel's TMEM need is known up front);
            # a later one opens its stretch, after the dealloc of the one before.
            begin = 0 if k == 0 else seg.span[0]
            start = next(i for i in range(begin, len(ops)) if not isinstance(ops[i], BufferOp))
            # A pair allocation needs a cluster barrier before it (the peer CTA running): the
            # kernel's own last one ahead of the first use, else one the pass writes. A later
            # allocation follows the dealloc before it, which ends with one.
            synced = k > 0
            if group == 2 and k == 0 and (wait := _cluster_wait_before(ops, seg.span[0])) is not None:
                start, synced = max(start, wait + 1), True
            allocations.append(Allocation(
                ncols, list(zip(seg.lives, seg.plan.slots)), ops[start], ops[seg.span[1]],
                relinquish=k == len(segments) - 1, cta_group=group, cluster_synced=synced,
            ))
        return allocations


def kernel_cta_group(function: func.FuncOp) -> int | Diagnostic:
    """The cta_group of the kernel's tcgen05 ops (one for all of them: TMEM_FACTS.md, allocation
    lifecycle; ptxas rejects cta_group::1 and ::2 in one function): the one its mma, cp, shift and
    commit ops carry, else the function's `tcgen05.cta_group` attribute (a kernel whose buffers
    only tile_load / tile_store touch), else 1. A kernel mixing them is an error."""
    marked = function.attributes.get(CTA_GROUP_ATTR)
    declared: tuple[int, Operation] | None = None
    if marked is not None:
        if not isinstance(marked, IntegerAttr) or isa.cta_group_error(marked.value.data) is not None:
            return error(function, f"'{CTA_GROUP_ATTR}' must be the integer 1 or 2, got {marked}")
        declared = (marked.value.data, function)
    if (mixed := next(mixed_cta_groups(function, declared), None)) is not None:
        return mixed
    return declared[0] if declared else next((group for group, _ in cta_group_uses(function)), 1)


def _cluster_wait_before(ops: list[Operation], first_use: int) -> int | None:
    """The index of the last top-level nvvm.cluster.wait before the top-level op `first_use`."""
    return next((i for i in range(first_use - 1, -1, -1) if isinstance(ops[i], ClusterWaitOp)), None)


def _unused(function: Operation) -> list[Operation]:
    """Addresses nothing uses, then the buffers nothing (else) uses."""
    addresses = [o for o in function.walk() if isinstance(o, BufferAddressOp) and not o.result.uses]
    dropped = {id(a) for a in addresses}
    buffers = [o for o in function.walk() if isinstance(o, BufferOp)
               and all(id(u.operation) in dropped for u in o.result.uses)]
    return [*addresses, *buffers]


def _hand_allocated(function: Operation) -> Diagnostic | None:
    for op in function.walk():
        effect = tmem_effect(op)
        if effect is not None and effect.kind in (EffectKind.ALLOC, EffectKind.RELINQUISH):
            first = next(o for o in function.walk() if isinstance(o, BufferOp))
            return error(first, "tmem-plan-columns cannot add an allocation to a function that "
                         "allocates TMEM by hand").attach_note("the hand-written allocation", op)
    return None


def _cover(spans: list[tuple[int, int] | None]) -> tuple[int, int]:
    found = [s for s in spans if s is not None]
    return min(s[0] for s in found), max(s[1] for s in found)


def _segments(lives: list[BufferLife], spans: dict[int, tuple[int, int] | None]) -> list[Segment]:
    """Stretches of the function body no buffer lives across (a no_reuse buffer spans them all)."""
    ordered = sorted(lives, key=lambda b: spans[id(b)])  # type: ignore[arg-type, return-value]
    if any(b.no_reuse for b in lives):
        return [Segment(ordered, _cover([spans[id(b)] for b in lives]))]
    segments: list[Segment] = []
    for life in ordered:
        span = spans[id(life)]
        assert span is not None
        if segments and span[0] <= segments[-1].span[1]:
            last = segments[-1]
            last.lives.append(life)
            last.span = (last.span[0], max(last.span[1], span[1]))
        else:
            segments.append(Segment([life], span))
    return segments


def _non_increasing(liveness: Liveness, segments: list[Segment]) -> list[Segment]:
    """Merge a stretch into the one before while it would need a larger allocation."""
    def size(seg: Segment) -> int:
        assert seg.plan is not None
        return allocation_size(max(seg.plan.columns, 1)) or 0

    merged = list(segments)
    k = 0
    while k + 1 < len(merged):
        if size(merged[k + 1]) > size(merged[k]):
            a, b = merged[k], merged.pop(k + 1)
            a.lives = a.lives + b.lives
            a.span = (a.span[0], b.span[1])
            a.plan = _plan(liveness, a.lives)
            k = max(k - 1, 0)
        else:
            k += 1
    return merged


def _plan(liveness: Liveness, lives: list[BufferLife]) -> Plan:
    items = []
    for life in lives:
        fp = footprint(life.op.buffer_type)
        items.append(Item(fp.width, fp.halves, lane_shifts(life), column_alignment(life)))
    n = len(lives)
    conflicts = [set() for _ in range(n)]  # type: list[set[int]]
    for i in range(n):
        for j in range(i):
            if liveness.interfere(lives[i], lives[j]):
                conflicts[i].add(j)
                conflicts[j].add(i)
    live_sets = _live_sets(liveness, lives)
    order = {op: k for k, op in enumerate(liveness.points)}
    starts = [min((order[o] for o in life.live if o in order), default=0) for life in lives]
    return assign(items, conflicts, live_sets, starts)


def _live_sets(liveness: Liveness, lives: list[BufferLife]) -> list[list[int]]:
    always = [i for i, b in enumerate(lives) if b.no_reuse]
    found: dict[frozenset[int], None] = {}
    for op in liveness.points:
        live = frozenset([*always, *(i for i, b in enumerate(lives) if op in b.live)])
        found.setdefault(live, None)
    return [sorted(s) for s in found]


def _pressure_error(liveness: Liveness, seg: Segment, budget: int, function: func.FuncOp) -> Diagnostic:
    from tmem_dialect.passes.column_assignment import lower_bound

    assert seg.plan is not None
    lives = seg.lives
    items = [Item(*_fp(b)) for b in lives]
    index = {id(b): i for i, b in enumerate(lives)}
    peak_op, peak_live, peak = None, [], -1
    for op in liveness.points:
        live = [b for b in lives if b.no_reuse or op in b.live]
        need = lower_bound(items, [[index[id(b)] for b in live]]) if live else 0
        if need > peak:
            peak_op, peak_live, peak = op, live, need
    if peak > budget:
        message = f"TMEM buffers live here require {peak} columns, {budget} available"
    else:
        message = (f"TMEM buffers of @{function.sym_name.data} require {seg.plan.columns} columns "
                   f"once placed, {budget} available (at most {peak} are live at once, here; "
                   "lane halves, alignment or tcgen05.no_reuse keep them from packing tighter)")
    diag = error(peak_op, message)
    for life in peak_live:
        fp = footprint(life.op.buffer_type)
        lanes = "16-lane halves" if len(fp.lane_shifts) > 1 else "lanes"
        reuse = ", never shared (tcgen05.no_reuse)" if life.no_reuse else ""
        diag.attach_note(f"this buffer requires {fp.width} columns ({lanes}){reuse}", life.op)
    return diag


def _fp(life: BufferLife) -> tuple[int, int, tuple[int, ...], int]:
    fp = footprint(life.op.buffer_type)
    return fp.width, fp.halves, lane_shifts(life), column_alignment(life)
