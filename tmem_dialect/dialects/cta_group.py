"""The `.cta_group::N` property shared by the tcgen05-level ops that carry it (lifecycle, mma, cp, shift, commit)."""

from __future__ import annotations

from xdsl.dialects.builtin import I32, IntegerAttr, i32
from xdsl.irdl import IRDLOperation, prop_def
from xdsl.utils.exceptions import VerifyException

from tmem_dialect import isa


class CtaGroupOp(IRDLOperation):
    """Base of the tcgen05 ops with `.cta_group::N` (1 by default), checked against the ISA."""

    cta_group = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, i32))

    @property
    def cta_group_value(self) -> int:
        return self.cta_group.value.data

    def verify_(self) -> None:
        error = isa.cta_group_error(self.cta_group_value)
        if error is not None:
            raise VerifyException(error)
