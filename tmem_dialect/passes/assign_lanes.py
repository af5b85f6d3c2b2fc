"""tmem-assign-lanes: rewrite warpgroup tile_load/tile_store into per-warp tcgen05.ld/st messages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tmem_dialect import isa
from tmem_dialect.conventions import reqntid
from tmem_dialect.diagnostics import Diagnostic, emit_all_or_raise, error
from tmem_dialect.dialects import nvvm, tcgen05, tcgen05_tiles
from tmem_dialect.layout import LANEID, TCOL, TLANE, WARPID, M, TileLayout
from tmem_dialect.passes.lane_plan import (
    NONE,
    Failure,
    Message,
    Mismatch,
    MismatchKind,
    WarpCells,
    accesses_for,
    plan_warp,
)
from tmem_dialect.passes.registers import message_budget

TileOp = tcgen05_tiles.TileLoadOp | tcgen05_tiles.TileStoreOp
WARPGROUP_THREADS = isa.WARPS_PER_WARPGROUP * isa.WARP_SIZE


# ---------------------------------------------------------------------------------------------
# Analysis: which warp, thread and register owns each TMEM cell of a tile
# ---------------------------------------------------------------------------------------------


@dataclass
class TilePlan:
    """The messages of each warp of the warpgroup (by lane quarter) for one tile op."""

    op: TileOp
    decl: tcgen05_tiles.DeclBufferOp
    decl_lane: int  # the buffer address's lane, relative to the allocation
    quarters: list[tuple[Message, ...]]
    positions: int  # length of the register vector (the fragment's m extent)
    copies: tuple[int, ...] = (0,)  # m offsets of the fragment's replicas (loads only)

    def groups(self) -> list[tuple[tuple[Message, ...], list[int]]]:
        """Distinct plans, each with the lane quarters (w % 4) that run it, in quarter order."""
        found: dict[tuple[Message, ...], list[int]] = {}
        for quarter, plan in enumerate(self.quarters):
            found.setdefault(plan, []).append(quarter)
        return list(found.items())


class _Analysis:
    """Plans one tile op or explains why it cannot be planned."""

    def __init__(self, op: TileOp, budget: int, plans: dict[object, object]):
        self.op = op
        self.budget = budget
        self.memo = plans

    def run(self) -> TilePlan | Diagnostic:
        op = self.op
        decl = op.buffer.owner
        if not isinstance(decl, tcgen05_tiles.DeclBufferOp):
            source = "a block argument" if isinstance(op.buffer, BlockArgument) else f"'{decl.name}'"
            return error(
                op,
                f"the tile's buffer comes from {source}; tmem-assign-lanes needs it to come from "
                "tcgen05.decl_buffer, to know the buffer's TMEM address",
            )
        base, decl_lane, _ = tcgen05_tiles.column_offset_of(decl.taddr)
        if not isinstance(base, BlockArgument) and tcgen05.loaded_slot(base) is None:
            return error(
                op,
                "cannot tell which TMEM lanes this buffer starts at: its address must be an "
                "allocated address (loaded from the alloc slot, or a function argument) plus constants",
            ).attach_note("the buffer is declared here", decl)
        frag = op.fragment_layout
        assert frag is not None  # the op verifier guarantees a fragment
        if frag.replica:
            loads = isinstance(op, tcgen05_tiles.TileLoadOp)
            if not loads or any(it.axis != M for it in frag.replica):
                why = (
                    "a tile_store would write one cell from several registers"
                    if not loads
                    else "a TMEM cell reaches one thread of one warp, so only copies within a "
                    "thread's registers (R[...] on m) can be made"
                )
                return error(op, f"the register fragment {frag} replicates elements: {why}")
        if (problem := self.block_size_problem(frag.span(WARPID))) is not None:
            return problem
        loads = isinstance(op, tcgen05_tiles.TileLoadOp)
        key = (op.buffer_type, op.region_offsets, op.region_sizes, frag, decl_lane, loads, self.budget)
        if key in self.memo:  # the same tile access again (an unrolled epilogue, say)
            quarters, positions, copies = self.memo[key]  # type: ignore[misc]
            return TilePlan(op, decl, decl_lane, quarters, positions, copies)
        plan = self.plan_tile(decl, decl_lane, frag)
        if isinstance(plan, TilePlan):
            self.memo[key] = (plan.quarters, plan.positions, plan.copies)
        return plan

    def plan_tile(self, decl: tcgen05_tiles.DeclBufferOp, decl_lane: int, frag: TileLayout) -> TilePlan | Diagnostic:
        op = self.op
        buffer = op.buffer_type
        buffer_flat = op.buffer_indices()
        region_flat = np.arange(buffer_flat.size, dtype=np.int64)
        tmem = buffer.tile_layout.shard_coords(buffer_flat)
        regs = frag.shard_coords(region_flat)
        zeros = np.zeros_like(region_flat)
        lanes = tmem.get(TLANE, zeros) + decl_lane
        columns = tmem.get(TCOL, zeros)
        warps = regs.get(WARPID, zeros)
        threads = regs.get(LANEID, zeros)
        positions = regs.get(M, zeros)

        quarter_of_lane = lanes // isa.LANES_PER_WARP
        wrong = np.nonzero(quarter_of_lane != warps)[0]
        if wrong.size:
            e = int(wrong[0])
            w, lane = int(warps[e]), int(lanes[e])
            quarter = isa.lane_quarter(w)
            return error(
                op,
                f"the register fragment gives element {self.element_name(e)} to warp {w} of the "
                f"warpgroup, but the element lives in TMEM lane {lane}: warp {w} can only access "
                f"lanes {quarter.start}..{quarter.stop - 1} (32*(w%4) .. +31)",
            )

        kinds = accesses_for(buffer.element_type.bitwidth)  # type: ignore[attr-defined]
        quarters: list[tuple[Message, ...]] = []
        for quarter in range(isa.WARPS_PER_WARPGROUP):
            mine = np.nonzero(warps == quarter)[0]
            if not mine.size:
                quarters.append(())
                continue
            cells = WarpCells.build(
                lanes[mine] - isa.warp_lane_base(quarter),
                columns[mine],
                threads[mine],
                positions[mine],
                mine,
            )
            key = (cells.key(), kinds, self.budget)
            if key not in self.memo:
                self.memo[key] = plan_warp(cells, kinds, self.budget)
            plan = self.memo[key]
            if isinstance(plan, Failure):
                return self.failure(quarter, cells, plan)
            quarters.append(plan)
        copies = tuple(r.get(M, 0) for r in frag.replica_offsets())
        return TilePlan(op, decl, decl_lane, quarters, frag.elements_per_thread(), copies)

    def block_size_problem(self, warps_needed: int) -> Diagnostic | None:
        func = _enclosing_function(self.op)
        if func is None:
            return error(self.op, "a tile op must be inside a function")
        dims = _reqntid(func)
        if dims is None:
            return None
        x, y, z = dims
        if y * z > 1 and x % WARPGROUP_THREADS:
            return error(
                self.op,
                f"the warp's lane quarter is taken from tid.x / {isa.WARP_SIZE}, which needs the "
                f"block's x extent to be a multiple of {WARPGROUP_THREADS} when y or z exceeds 1 "
                f"(the block is {x}x{y}x{z})",
            ).attach_note("the block size is declared here", func)
        threads = x * y * z
        if threads < warps_needed * isa.WARP_SIZE:
            return error(
                self.op,
                f"the register fragment needs warps 0..{warps_needed - 1} of the warpgroup, but "
                f"the block has only {threads} threads",
            ).attach_note("the block size is declared here", func)
        return None

    def element_name(self, element: int) -> str:
        return "[" + ", ".join(str(c) for c in self.op.region_element(element)) + "]"

    def failure(self, quarter: int, cells: WarpCells, failure: Failure) -> Diagnostic:
        base = isa.warp_lane_base(quarter)
        lane, column = failure.lane, failure.column
        thread, position = int(cells.thread[lane, column]), int(cells.position[lane, column])
        element = self.element_name(int(cells.element[lane, column]))
        kind = "tcgen05.ld" if isinstance(self.op, tcgen05_tiles.TileLoadOp) else "tcgen05.st"
        diagnostic = error(
            self.op,
            f"no {kind} shape can move element {element} (TMEM lane {base + lane}, buffer column "
            f"{column}) to register {position} of thread {thread} of warp {quarter} of the "
            "warpgroup",
        )
        for access, reason in failure.reasons:
            diagnostic.attach_note(f"{access}: {self.reason(reason, cells, base)}", self.op)
        return diagnostic

    def reason(self, reason: Mismatch | str | None, cells: WarpCells, base: int) -> str:
        if reason is None:
            return "fits this element, but not together with the messages that cover the others"
        if isinstance(reason, str):
            return reason
        where = f"lane {base + reason.lane}, column {reason.column}"
        match reason.kind:
            case MismatchKind.OUTSIDE:
                return (
                    f"thread {reason.thread} would access {where}, outside the warp's lanes "
                    f"{base}..{base + isa.LANES_PER_WARP - 1}"
                )
            case MismatchKind.EMPTY if reason.position != NONE:
                return (
                    f"thread {reason.thread} holds no register {reason.position} to pair with "
                    f"thread {reason.owner}'s (16x32bx2 moves register r of threads t and t+16 "
                    "together)"
                )
            case MismatchKind.EMPTY:
                return f"thread {reason.thread} would access {where}, which holds no element of this tile"
            case MismatchKind.OWNER:
                element = self.element_name(int(cells.element[reason.lane, reason.column]))
                return (
                    f"it gives {where} (element {element}) to thread {reason.thread}, but the "
                    f"register fragment gives that element to thread {reason.owner}"
                )
            case MismatchKind.POSITION:
                return (
                    f"register {reason.register} would hold fragment position {reason.position} in "
                    f"thread {reason.thread} but {reason.expected_position} in thread 0; a register "
                    "must hold the same position in every thread"
                )
            case MismatchKind.TAKEN:
                return f"{where} is already moved by another message"
            case MismatchKind.SPLIT:
                return (
                    f"threads 16-31 would start at {where}, before threads 0-15: the half-split "
                    "offset cannot be negative"
                )


def _enclosing_function(op: Operation) -> Operation | None:
    while (parent := op.parent_op()) is not None and not isinstance(parent, ModuleOp):
        op = parent
    return op if parent is not None else None


def _reqntid(func: Operation) -> tuple[int, int, int] | None:
    """The declared block size (conventions.reqntid), None when absent or malformed (the
    attribute checks report a malformed one)."""
    try:
        return reqntid(func)
    except ValueError:
        return None


def plan_tiles(module: ModuleOp, budget: int, explicit: bool = False) -> tuple[list[TilePlan], list[Diagnostic]]:
    """The plan of every tile op of `module` (in walk order), and why the others have none.

    Each message uses at most `budget` registers per thread, or, unless the budget is `explicit`,
    half the limit of a setmaxnreg before the tile op (passes.registers). What the pass rewrites
    with; tools.pictures draws it (tmem-draw plan).
    """
    memo: dict[object, object] = {}  # warp cells -> plan, and tile access -> per-warp plans
    plans: list[TilePlan] = []
    problems: list[Diagnostic] = []
    for tile in [o for o in module.walk() if isinstance(o, TileOp)]:
        result = _Analysis(tile, budget if explicit else message_budget(tile, budget), memo).run()
        if isinstance(result, Diagnostic):
            problems.append(result)
        else:
            plans.append(result)
    return plans, problems


# ---------------------------------------------------------------------------------------------
# Emission
# ---------------------------------------------------------------------------------------------


@dataclass
class _Emitter:
    """Appends ops to a list; the lists are inserted or become block bodies."""

    ops: list[Operation] = field(default_factory=list[Operation])
    _zeros: dict[tuple[Attribute, int], SSAValue] = field(default_factory=dict[tuple[Attribute, int], SSAValue])

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def i32(self, value: int) -> SSAValue:
        # Wrap to a signed i32 so address arithmetic may step lanes backwards.
        value &= 0xFFFFFFFF
        if value >= 1 << 31:
            value -= 1 << 32
        return self.add(arith.ConstantOp(IntegerAttr(value, i32)))

    def zeros(self, element: Attribute, length: int) -> SSAValue:
        """A zero vector, made once per op list (it dominates the later ops of the same list)."""
        key = (element, length)
        if key not in self._zeros:
            zero = 0 if isinstance(element, IntegerType) else 0.0
            attr = DenseIntOrFPElementsAttr.from_list(VectorType(element, [length]), [zero] * length)
            self._zeros[key] = self.add(arith.ConstantOp(attr))
        return self._zeros[key]

    def shuffle(self, a: SSAValue, b: SSAValue, mask: Sequence[int]) -> SSAValue:
        element = a.type.get_element_type()  # type: ignore[attr-defined]
        return self.add(
            vector.ShuffleOp(
                a, b, DenseArrayBase.from_list(IntegerType(64), mask), result_type=VectorType(element, [len(mask)])
            )
        )

    def bitcast(self, value: SSAValue, element: Attribute) -> SSAValue:
        source = value.type
        assert isinstance(source, VectorType)
        bits = source.get_element_type().bitwidth * source.get_shape()[0]  # type: ignore[attr-defined]
        if source.get_element_type() == element:
            return value
        length = bits // element.bitwidth  # type: ignore[attr-defined]
        return self.add(vector.BitcastOp(value, VectorType(element, [length])))


def _vector_length(value: SSAValue) -> int:
    assert isinstance(value.type, VectorType)
    return value.type.get_shape()[0]


def _paired(emit: _Emitter, a: SSAValue, b: SSAValue) -> tuple[SSAValue, SSAValue]:
    """Both operands at one length: LLVM's shufflevector (what vector.shuffle lowers to) needs
    equal operand types, so the shorter one is first widened, keeping its elements in place."""
    la, lb = _vector_length(a), _vector_length(b)
    if la < lb:
        a = emit.shuffle(a, a, [*range(la), *[0] * (lb - la)])
    elif lb < la:
        b = emit.shuffle(b, b, [*range(lb), *[0] * (la - lb)])
    return a, b


def gather(
    emit: _Emitter, parts: list[SSAValue], picks: list[tuple[int, int] | None], element: Attribute
) -> SSAValue:
    """A vector whose i-th element is parts[k][s] for picks[i] = (k, s), zero where None.

    vector.shuffle takes two operands, so more parts are first concatenated pairwise,
    keeping only the elements that are picked.
    """
    parts = list(parts)
    if any(p is None for p in picks):
        parts.append(emit.zeros(element, _vector_length(parts[-1]) if parts else len(picks)))
        picks = [p if p is not None else (len(parts) - 1, 0) for p in picks]
    resolved: list[tuple[int, int]] = picks  # type: ignore[assignment]
    if len(parts) == 1:
        if resolved == [(0, i) for i in range(_vector_length(parts[0]))]:
            return parts[0]
        return emit.shuffle(parts[0], parts[0], [s for _, s in resolved])
    while len(parts) > 2:
        kept = [sorted({s for k, s in resolved if k == part}) for part in (0, 1)]
        first, second = _paired(emit, parts[0], parts[1])
        mask = kept[0] + [_vector_length(first) + s for s in kept[1]]
        joined = emit.shuffle(first, second, mask)
        where = {(0, s): i for i, s in enumerate(kept[0])}
        where.update({(1, s): len(kept[0]) + i for i, s in enumerate(kept[1])})
        resolved = [(0, where[(k, s)]) if k < 2 else (k - 1, s) for k, s in resolved]
        parts = [joined, *parts[2:]]
    first, second = _paired(emit, parts[0], parts[1])
    offset = _vector_length(first)
    return emit.shuffle(first, second, [s if k == 0 else offset + s for k, s in resolved])


@dataclass
class _TileRewriter:
    """Emits the per-warp messages of one planned tile op in place of the op."""

    plan: TilePlan
    lane_base: SSAValue
    quarter: SSAValue

    def __post_init__(self) -> None:
        self.element: Attribute = self.plan.op.buffer_type.element_type
        self.slots_per_register = isa.CELL_BITS // self.element.bitwidth  # type: ignore[attr-defined]

    def register_type(self) -> VectorType:
        return VectorType(self.element, [self.plan.positions])

    def rewrite(self) -> None:
        op = self.plan.op
        emit = _Emitter()
        address = emit.add(arith.AddiOp(self.plan.decl.taddr, self.lane_base))
        result = self.dispatch(emit, address, self.plan.groups())
        Rewriter.insert_op(emit.ops, InsertPoint.before(op))
        if isinstance(op, tcgen05_tiles.TileLoadOp):
            assert result is not None
            op.result.replace_all_uses_with(result)
        Rewriter.erase_op(op)

    def dispatch(
        self, emit: _Emitter, address: SSAValue, groups: list[tuple[tuple[Message, ...], list[int]]]
    ) -> SSAValue | None:
        """Straight-line code when all warps share a plan; else an scf.if chain on w % 4."""
        messages, quarters = groups[0]
        if len(groups) == 1:
            return self.messages(emit, address, messages)
        condition = self.quarter_test(emit, quarters)
        then_emit, else_emit = _Emitter(), _Emitter()
        then_value = self.messages(then_emit, address, messages)
        else_value = self.dispatch(else_emit, address, groups[1:])
        loads = isinstance(self.plan.op, tcgen05_tiles.TileLoadOp)
        then_emit.add(scf.YieldOp(*([then_value] if loads else [])))
        else_emit.add(scf.YieldOp(*([else_value] if loads else [])))
        branch = scf.IfOp(
            condition,
            [self.register_type()] if loads else [],
            Region(Block(then_emit.ops)),
            Region(Block(else_emit.ops)),
        )
        emit.add(branch)
        return branch.results[0] if loads else None

    def quarter_test(self, emit: _Emitter, quarters: list[int]) -> SSAValue:
        if quarters == list(range(len(quarters))):
            return emit.add(arith.CmpiOp(self.quarter, emit.i32(len(quarters)), "ult"))
        tests = [emit.add(arith.CmpiOp(self.quarter, emit.i32(q), "eq")) for q in quarters]
        condition = tests[0]
        for test in tests[1:]:
            condition = emit.add(arith.OrIOp(condition, test))
        return condition

    def message_address(self, emit: _Emitter, address: SSAValue, message: Message) -> SSAValue:
        # The warp adds its quarter's lane base at run time; the rest is a constant step from the
        # buffer address (whose own lane is decl_lane).
        step = ((message.lane - self.plan.decl_lane) << isa.LANE_SHIFT) + message.column
        if step == 0:
            return address
        return emit.add(arith.AddiOp(address, emit.i32(step)))

    def slot(self, message: Message, index: int) -> int:
        """Where the index-th (register, half) of a message sits in its element-typed vector."""
        register, half = divmod(index, message.access.halves)
        return register * self.slots_per_register + half

    def messages(self, emit: _Emitter, address: SSAValue, messages: tuple[Message, ...]) -> SSAValue | None:
        if isinstance(self.plan.op, tcgen05_tiles.TileLoadOp):
            return self.loads(emit, address, messages)
        self.stores(emit, address, messages, self.plan.op.value)
        return None

    def loads(self, emit: _Emitter, address: SSAValue, messages: tuple[Message, ...]) -> SSAValue:
        if not messages:
            return emit.zeros(self.element, self.plan.positions)
        parts: list[SSAValue] = []
        picks: list[tuple[int, int] | None] = [None] * self.plan.positions
        for k, message in enumerate(messages):
            ld = tcgen05.LdOp(
                self.message_address(emit, address, message),
                message.access.shape,
                message.num,
                pack=message.access.packed,
                offset=message.half_split_offset,
            )
            parts.append(emit.bitcast(emit.add(ld), self.element))
            for index, position in enumerate(message.positions):
                for copy in self.plan.copies:
                    picks[position + copy] = (k, self.slot(message, index))
        return gather(emit, parts, picks, self.element)

    def stores(self, emit: _Emitter, address: SSAValue, messages: tuple[Message, ...], value: SSAValue) -> None:
        for message in messages:
            length = message.registers * self.slots_per_register
            # Unpacked 16-bit stores leave the high half of each register unpicked: it is zero.
            picks: list[tuple[int, int] | None] = [None] * length
            for index, position in enumerate(message.positions):
                picks[self.slot(message, index)] = (0, position)
            registers = gather(emit, [value], picks, self.element)
            emit.add(
                tcgen05.StOp(
                    emit.bitcast(registers, IntegerType(isa.CELL_BITS)),
                    self.message_address(emit, address, message),
                    message.access.shape,
                    message.num,
                    unpack=message.access.packed,
                    offset=message.half_split_offset,
                )
            )


def _warp_lane_base(func: Operation) -> tuple[SSAValue, SSAValue]:
    """At the function entry: q = (tid.x / 32) % 4 and the address step (32 * q) << 16."""
    emit = _Emitter()
    tid = emit.add(nvvm.SPECIAL_REGISTER_BY_NAME["nvvm.read.ptx.sreg.tid.x"]())
    warp = emit.add(arith.ShRUIOp(tid, emit.i32(isa.WARP_SIZE.bit_length() - 1)))
    quarter = emit.add(arith.AndIOp(warp, emit.i32(isa.WARPS_PER_WARPGROUP - 1)))
    step = isa.warp_taddr_offset(1)
    assert step & (step - 1) == 0, "the per-quarter lane step is a power of two"
    lane_base = emit.add(arith.ShLIOp(quarter, emit.i32(step.bit_length() - 1)))
    entry = func.regions[0].blocks.first
    assert entry is not None
    if entry.first_op is None:
        entry.add_ops(emit.ops)
    else:
        Rewriter.insert_op(emit.ops, InsertPoint.before(entry.first_op))
    return lane_base, quarter


# ---------------------------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AssignLanesPass(ModulePass):
    """Turn each warpgroup tile_load/tile_store into the tcgen05.ld/st messages of each warp.

    Every warp w runs the same code, adding its lane base (32 * (w % 4)) << 16 to the buffer
    address; when warps need different messages, an scf.if on w % 4 picks them. Each message
    uses at most `regs_per_message` registers per thread (default maxnreg / 2, Triton's rule, where
    maxnreg is the count of a setmaxnreg before the tile op, else the `maxnreg` option).
    """

    name = "tmem-assign-lanes"

    maxnreg: int = 256
    regs_per_message: int | None = None

    @property
    def budget(self) -> int:
        return self.regs_per_message if self.regs_per_message is not None else self.maxnreg // 2

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.budget < 1:
            emit_all_or_raise(
                [
                    error(
                        None,
                        f"tmem-assign-lanes: the register budget per message must be at least 1 "
                        f"(maxnreg={self.maxnreg}, regs-per-message={self.regs_per_message})",
                    )
                ]
            )
        plans, problems = plan_tiles(op, self.budget, explicit=self.regs_per_message is not None)
        # All or nothing: a module with an unplannable tile is left untouched.
        emit_all_or_raise(problems)

        lane_bases: dict[Operation, tuple[SSAValue, SSAValue]] = {}
        decls: set[tcgen05_tiles.DeclBufferOp] = set()
        for plan in plans:
            func = _enclosing_function(plan.op)
            assert func is not None
            if func not in lane_bases:
                lane_bases[func] = _warp_lane_base(func)
            lane_base, quarter = lane_bases[func]
            _TileRewriter(plan, lane_base, quarter).rewrite()
            decls.add(plan.decl)
        for decl in decls:
            if not decl.result.uses:
                Rewriter.erase_op(decl)
