"""The tcgen05 dialect's tcgen05.cp, tcgen05.shift and tcgen05.commit: async copies into TMEM and their completion.

TMEM addresses are i32, shared-memory descriptors i64, mbarriers `!llvm.ptr<3>` (or a generic
`!llvm.ptr`). Every rule a verifier checks is a fact of `isa`.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.dialects.cta_group import CtaGroupOp
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import verify_isa
from tmem_dialect.dialects.tcgen05_mbarrier import check_mbarrier
from tmem_dialect.memory_model import EffectKind

i16 = IntegerType(16)




class CpShapeKind(StrEnum):
    shape_128x256b = auto()
    shape_4x256b = auto()
    shape_128x128b = auto()
    shape_64x128b = auto()
    shape_32x128b = auto()

    @property
    def isa_shape(self) -> isa.CpShape:
        return isa.CpShape(self.value.removeprefix("shape_"))


class CpMulticastKind(StrEnum):
    warpx2_02_13 = auto()
    warpx2_01_23 = auto()
    warpx4 = auto()

    @property
    def isa_multicast(self) -> isa.CpMulticast:
        return isa.CpMulticast(self.value.replace("x2_", "x2::"))


class CpSourceKind(StrEnum):
    b6x16_p32 = auto()
    b4x16_p64 = auto()

    @property
    def isa_source(self) -> isa.CpSourceFormat:
        return isa.CpSourceFormat(self.value)


@irdl_attr_definition
class CpShapeAttr(EnumAttribute[CpShapeKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.cp_shape"


@irdl_attr_definition
class CpMulticastAttr(EnumAttribute[CpMulticastKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.cp_multicast"


@irdl_attr_definition
class CpSourceAttr(EnumAttribute[CpSourceKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.cp_source"


@irdl_op_definition
class CpOp(CtaGroupOp, TMEMEffectOp):
    """Asynchronously copy a matrix from shared memory (descriptor) into TMEM at taddr."""

    name = "tcgen05.cp"

    taddr = operand_def(i32)
    smem_desc = operand_def(i64)
    shape = prop_def(CpShapeAttr)
    multicast = opt_prop_def(CpMulticastAttr)
    source_format = opt_prop_def(CpSourceAttr)

    assembly_format = (
        "$taddr `,` $smem_desc $shape (`multicast` $multicast^)? (`source` $source_format^)? "
        "(`cta_group` `(` $cta_group^ `)`)? attr-dict"
    )

    def __init__(
        self,
        taddr: SSAValue | Operation,
        smem_desc: SSAValue | Operation,
        shape: CpShapeKind,
        multicast: CpMulticastKind | None = None,
        source_format: CpSourceKind | None = None,
        cta_group: int = 1,
    ):
        props: dict[str, Attribute] = {"shape": CpShapeAttr(shape), "cta_group": IntegerAttr(cta_group, i32)}
        if multicast is not None:
            props["multicast"] = CpMulticastAttr(multicast)
        if source_format is not None:
            props["source_format"] = CpSourceAttr(source_format)
        super().__init__(operands=[taddr, smem_desc], properties=props)

    @property
    def isa_shape(self) -> isa.CpShape:
        return self.shape.data.isa_shape

    @property
    def isa_multicast(self) -> isa.CpMulticast | None:
        return None if self.multicast is None else self.multicast.data.isa_multicast

    @property
    def isa_source(self) -> isa.CpSourceFormat | None:
        return None if self.source_format is None else self.source_format.data.isa_source

    def verify_(self) -> None:
        super().verify_()
        verify_isa(isa.cp_form_error(self.isa_shape, self.isa_multicast))

    def tmem_effect(self) -> TMEMEffect:
        fp = isa.cp_footprint(self.isa_shape, self.isa_multicast)
        lanes = max(fp.lane_set) + 1
        return TMEMEffect(EffectKind.CP, self.taddr, self.cta_group_value, extent=(lanes, fp.columns))


@irdl_op_definition
class ShiftOp(CtaGroupOp, TMEMEffectOp):
    """Asynchronously shift the 32-byte elements of the 32 lanes at taddr one lane down (`tcgen05.shift...down`, isa.shift_moves)."""

    name = "tcgen05.shift"

    taddr = operand_def(i32)

    assembly_format = "$taddr (`cta_group` `(` $cta_group^ `)`)? attr-dict"

    def __init__(self, taddr: SSAValue | Operation, cta_group: int = 1):
        super().__init__(operands=[taddr], properties={"cta_group": IntegerAttr(cta_group, i32)})

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.SHIFT, self.taddr, self.cta_group_value, extent=(isa.SHIFT_LANES, isa.SHIFT_COLUMNS))

    def tmem_lane_alignment(self, operand: SSAValue) -> int:
        """taddr's lane must be a multiple of isa.SHIFT_LANE_ALIGNMENT (PTX ISA 9.7.16.9.3)."""
        return isa.SHIFT_LANE_ALIGNMENT if operand is self.taddr else 1


@irdl_op_definition
class CommitOp(CtaGroupOp, TMEMEffectOp):
    """Make the mbarrier arrive once all prior async tcgen05 ops (mma, cp, shift) of this thread
    complete; with a multicast mask, on the mbarrier at the same offset in each CTA of the mask."""

    name = "tcgen05.commit"

    mbarrier = operand_def(llvm.LLVMPointerType)
    multicast_mask = opt_operand_def(i16)

    assembly_format = (
        "$mbarrier (`multicast` $multicast_mask^)? (`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($mbarrier)"
    )

    def __init__(
        self, mbarrier: SSAValue | Operation, cta_group: int = 1, multicast_mask: SSAValue | Operation | None = None
    ):
        super().__init__(
            operands=[mbarrier, [] if multicast_mask is None else [multicast_mask]],
            properties={"cta_group": IntegerAttr(cta_group, i32)},
        )

    def verify_(self) -> None:
        super().verify_()
        check_mbarrier(self.mbarrier)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(
            EffectKind.COMMIT, cta_group=self.cta_group_value, mbarrier=self.mbarrier, multicast=self.multicast_mask
        )


CP_OPS = [CpOp, ShiftOp, CommitOp]
CP_ATTRS = [CpShapeAttr, CpMulticastAttr, CpSourceAttr]
