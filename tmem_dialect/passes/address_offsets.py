"""Run-time offsets added to a tcgen05.buffer_address: the chain of arith.addi to each TMEM access, and the lanes and columns it may reach.

A kernel adds a run-time offset to a buffer's address where the cell depends on the thread or the
iteration: a warp's lane quarter (`(32 * (warp % 4)) << 16`), a ring stage's columns
(`32 * (t % 2)`), a loop's column chunk. tmem-plan-columns follows such a chain of `arith.addi`
to the ops that access TMEM at its end, and bounds the offset so that the access provably stays
on the buffer's cells: every addend is a constant (split into lane and column as isa.make_taddr
packs them), a `shli` by at least 16 (a lane offset), or a value below 2^16 (a column offset),
each bounded by interval arithmetic (int_eval.interval) over constants, casts, the integer ops,
the thread id (below the kernel's tcgen05.reqntid) and scf.for induction variables.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from tmem_dialect import conventions
from tmem_dialect.passes.int_eval import BINARY_BY_NAME, CASTS, interval

LANE_SHIFT = 16
"""A TMEM address is (lane << 16) + column (isa.make_taddr)."""
TID_X = "nvvm.read.ptx.sreg.tid.x"
Range = tuple[int, int]


@dataclass(frozen=True)
class Offset:
    """The lanes and columns a run-time offset may add (inclusive ranges)."""

    lanes: Range = (0, 0)
    columns: Range = (0, 0)

    def __add__(self, other: Offset) -> Offset:
        return Offset(_add(self.lanes, other.lanes), _add(self.columns, other.columns))


def _add(a: Range, b: Range) -> Range:
    return a[0] + b[0], a[1] + b[1]


@dataclass(frozen=True)
class Access:
    """An op reached from a buffer_address through arith.addi: the op, the value it takes, the
    addis on the way and what they add (None: some addend could not be bounded)."""

    op: Operation
    value: SSAValue
    chain: tuple[Operation, ...]
    offset: Offset | None


def accesses(address: SSAValue) -> list[Access]:
    """The users of `address`, following arith.addi chains (one operand the chain, the other an
    offset) to the ops at their ends."""
    out: list[Access] = []
    stack: list[tuple[SSAValue, tuple[Operation, ...], Offset | None]] = [(address, (), Offset())]
    while stack:
        value, chain, offset = stack.pop()
        for use in list(value.uses):
            user = use.operation
            if isinstance(user, arith.AddiOp):
                other = user.rhs if use.index == 0 else user.lhs
                added = addend(other)
                total = None if offset is None or added is None else offset + added
                stack.append((user.result, (*chain, user), total))
            else:
                out.append(Access(user, value, chain, offset))
    return out


def addend(value: SSAValue) -> Offset | None:
    """What adding `value` to a TMEM address may add, in lanes and columns (None: unbounded)."""
    const = _constant(value)
    if const is not None:
        if const < 0:
            return None
        lane, column = const >> LANE_SHIFT, const & ((1 << LANE_SHIFT) - 1)
        return Offset((lane, lane), (column, column))
    if isinstance(value, OpResult) and isinstance(value.op, arith.AddiOp):
        a, b = addend(value.op.lhs), addend(value.op.rhs)
        return None if a is None or b is None else a + b
    if isinstance(value, OpResult) and isinstance(value.op, arith.ShLIOp):
        shift = _constant(value.op.rhs)
        base = value_range(value.op.lhs)
        if shift is not None and shift >= LANE_SHIFT and base is not None and base[0] >= 0:
            scale = 1 << (shift - LANE_SHIFT)
            return Offset((base[0] * scale, base[1] * scale), (0, 0))
    found = value_range(value)
    if found is None or found[0] < 0 or found[1] >= 1 << LANE_SHIFT:
        return None
    return Offset((0, 0), found)


def _constant(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return int(attr.value.data)
    return None


def value_range(value: SSAValue, depth: int = 0) -> Range | None:
    """Bounds of an integer value over every thread and iteration (None: not known)."""
    if depth > 64:
        return None
    const = _constant(value)
    if const is not None:
        return const, const
    if isinstance(value, BlockArgument):
        loop = value.block.parent_op()
        if isinstance(loop, scf.ForOp) and value.index == 0:
            lo, hi = value_range(loop.lb, depth + 1), value_range(loop.ub, depth + 1)
            if lo is None or hi is None or hi[1] <= lo[0]:
                return None
            return lo[0], hi[1] - 1
        return None
    assert isinstance(value, OpResult)
    op = value.op
    if op.name == TID_X:
        return 0, _threads(op) - 1
    if op.name in CASTS and len(op.operands) == 1:
        return value_range(op.operands[0], depth + 1)
    kind = BINARY_BY_NAME.get(op.name)
    if kind is not None and len(op.operands) == 2:
        a = value_range(op.operands[0], depth + 1)
        b = value_range(op.operands[1], depth + 1)
        return interval(kind, a, b)
    return None


def _threads(op: Operation) -> int:
    function = op.parent_op()
    while function is not None and conventions.reqntid_attribute(function) is None:
        function = function.parent_op()
    try:
        found = None if function is None else conventions.reqntid(function)
    except ValueError:
        found = None
    return found[0] if found is not None else conventions.MAX_THREADS_PER_BLOCK
