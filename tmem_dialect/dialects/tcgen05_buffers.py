"""tcgen05.buffer: a TMEM buffer declared by its type alone, placed in columns by tmem-plan-columns."""

from __future__ import annotations

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def
from xdsl.utils.exceptions import VerifyException

from tmem_dialect.dialects.tcgen05_tiles import TMEMBufferType

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


BUFFER_OPS = (BufferOp,)
"""Registered in the tcgen05 dialect alongside tcgen05.py's ops (see dialects/__init__.py)."""


def with_buffer_ops(dialect: Dialect) -> Dialect:
    """The tcgen05 dialect with the buffer ops added."""
    return Dialect(dialect.name, [*dialect.operations, *BUFFER_OPS], [*dialect.attributes])
