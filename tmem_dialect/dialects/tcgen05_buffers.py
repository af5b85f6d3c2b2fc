"""tcgen05.buffer: a TMEM buffer declared by its type alone, placed in columns by tmem-plan-columns."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, UnitAttr, i32, i64
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.dialects.tcgen05_tiles import TMEMBufferType
from tmem_dialect.layout import TCOL, TLANE
from tmem_dialect.memory_model import EffectKind

NO_REUSE_ATTR = "tcgen05.no_reuse"
"""On a tcgen05.buffer: its columns are shared with no other buffer, whatever the lifetimes."""


@irdl_op_definition
class BufferOp(IRDLOperation):
    """A TMEM buffer of the given shape, element type and layout, not yet placed in columns.

    `%acc = tcgen05.buffer : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>`

    Its result is used wherever a `tcgen05.decl_buffer` result is (tile_load, tile_store, ...).
    tmem-plan-columns allocates TMEM for every buffer of a function and replaces each with a
    decl_buffer at the columns (and, for 16-lane layouts, the lane half) it chose.
    """

    name = "tcgen05.buffer"

    result = result_def(TMEMBufferType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, buffer_type: TMEMBufferType, *, no_reuse: bool = False):
        super().__init__(result_types=[buffer_type])
        if no_reuse:
            self.attributes[NO_REUSE_ATTR] = UnitAttr()

    @property
    def buffer_type(self) -> TMEMBufferType:
        assert isinstance(self.result.type, TMEMBufferType)
        return self.result.type

    @property
    def no_reuse(self) -> bool:
        return NO_REUSE_ATTR in self.attributes

    def verify_(self) -> None:
        attr = self.attributes.get(NO_REUSE_ATTR)
        if attr is not None and not isinstance(attr, UnitAttr):
            raise VerifyException(f"'{NO_REUSE_ATTR}' is a unit attribute (no value), got {attr}")


@irdl_op_definition
class BufferAddressOp(IRDLOperation):
    """The i32 TMEM address of a buffer's cell at a constant [lane, column] offset from its start.

    `%d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x256xf32, ...>`

    For the ops that take a raw TMEM address: tcgen05.mma (D, A in TMEM, scale_a, scale_b),
    tcgen05.cp, tcgen05.shift, tcgen05.ld/st. Its result feeds such an op directly (tmem-plan-columns
    follows the address to its users to know where the buffer is live, so the address may not
    flow through arithmetic, block arguments or yields). tmem-plan-columns rewrites it, at each
    user, into the buffer's planned base + `(lane << 16) + column`; none is left for the lowering.
    """

    name = "tcgen05.buffer_address"

    buffer = operand_def(TMEMBufferType)
    offsets = prop_def(DenseArrayBase.constr(i64))
    result = result_def(i32)

    assembly_format = "$buffer $offsets attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue, offsets: Sequence[int] = (0, 0)):
        super().__init__(operands=[buffer], result_types=[i32],
                         properties={"offsets": DenseArrayBase.from_list(i64, offsets)})

    @property
    def lane(self) -> int:
        return int(self.offsets.get_values()[0])

    @property
    def column(self) -> int:
        return int(self.offsets.get_values()[1])

    @property
    def taddr_offset(self) -> int:
        """What the address adds to the buffer's own address (isa.make_taddr)."""
        return isa.make_taddr(self.lane, self.column)

    def verify_(self) -> None:
        values = self.offsets.get_values()
        if len(values) != 2:
            raise VerifyException(f"the offset is [lane, column], got {len(values)} value(s)")
        buffer_type = self.buffer.type
        assert isinstance(buffer_type, TMEMBufferType)
        layout = buffer_type.tile_layout
        for what, value, span in (("lane", self.lane, layout.span(TLANE)),
                                  ("column", self.column, max(layout.span(TCOL), 1))):
            if not 0 <= value < span:
                raise VerifyException(
                    f"{what} offset {value} is outside the buffer, which spans {span} {what}s "
                    f"(from 0 to {span - 1})"
                )
        cells = _cells(buffer_type)
        if (self.lane, self.column) not in cells:
            raise VerifyException(
                f"cell [{self.lane}, {self.column}] is not in the buffer: its layout "
                f"{layout.format()} maps no element there"
            )
        for use in self.result.uses:
            if (missing := _access_outside(use.operation, self, cells)) is not None:
                raise VerifyException(missing)


@functools.lru_cache(maxsize=64)
def _cells(buffer_type: TMEMBufferType) -> frozenset[tuple[int, int]]:
    """The (lane, column) cells the buffer's layout maps an element to, replicas included."""
    layout = buffer_type.tile_layout
    coords = layout.shard_coords()
    size = layout.size
    lanes = coords.get(TLANE, np.zeros(size, dtype=np.int64))
    columns = coords.get(TCOL, np.zeros(size, dtype=np.int64))
    out: set[tuple[int, int]] = set()
    for replica in layout.replica_offsets():
        out.update(zip((lanes + replica.get(TLANE, 0)).tolist(), (columns + replica.get(TCOL, 0)).tolist()))
    return frozenset(out)


_RECTANGLE_KINDS = frozenset({EffectKind.CP, EffectKind.SHIFT})
"""Accesses whose TMEMEffect extent is exactly the cells they touch: tcgen05.cp (isa.cp_footprint:
its shapes and multicasts fill whole lanes x columns) and tcgen05.shift (isa.SHIFT_LANES x
isa.SHIFT_COLUMNS). An mma's D extent is a bounding box (an M=64 D fills half of each lane
quarter, isa.accumulator_lane), so only its first cell is checked, as every use's is."""


def _access_outside(user: Operation, address: BufferAddressOp, cells: frozenset[tuple[int, int]]) -> str | None:
    """Why the access `user` makes at `address` reaches a cell the buffer does not hold, if it does."""
    try:
        effect = tmem_effect(user)
    except ValueError:  # an illegal form: its own verifier reports it
        return None
    if (effect is None or effect.kind not in _RECTANGLE_KINDS or effect.extent is None
            or effect.address is not address.result):
        return None
    lanes, columns = effect.extent
    for lane in range(address.lane, address.lane + lanes):
        for column in range(address.column, address.column + columns):
            if (lane, column) not in cells:
                return (f"the '{user.name}' at this address accesses {lanes} lanes x {columns} columns "
                        f"from [{address.lane}, {address.column}], but cell [{lane}, {column}] is not in "
                        "the buffer")
    return None


BUFFER_OPS = (BufferOp, BufferAddressOp)
"""Registered in the tcgen05 dialect alongside tcgen05.py's ops (see dialects/__init__.py)."""


def with_buffer_ops(dialect: Dialect) -> Dialect:
    """The tcgen05 dialect with the buffer ops added."""
    return Dialect(dialect.name, [*dialect.operations, *BUFFER_OPS], [*dialect.attributes])
