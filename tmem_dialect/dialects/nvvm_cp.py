"""Upstream NVVM's nvvm.tcgen05.cp, .shift and .commit, in iree-opt 3.13.0's exact custom syntax."""

from __future__ import annotations

from enum import auto
from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import BoolAttr, IntegerType, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import (
    CTA_1,
    FALSE,
    TMEM_POINTER,
    Bracketed,
    CTAGroupKind,
    CTAGroupKindAttr,
    verify_isa,
)
from tmem_dialect.dialects.nvvm_custom import (
    Angled,
    Clause,
    _print_operands,
    parse_clauses,
    print_clauses,
)
from tmem_dialect.dialects.nvvm_mbarrier import _check_barrier_pointer
from tmem_dialect.memory_model import EffectKind

i16 = IntegerType(16)




class CpShape(StrEnum):
    shape_128x256b = auto()
    shape_4x256b = auto()
    shape_128x128b = auto()
    shape_64x128b = auto()
    shape_32x128b = auto()

    @property
    def isa_shape(self) -> isa.CpShape:
        return isa.CpShape(self.value.removeprefix("shape_"))


class CpMulticast(StrEnum):
    none = auto()
    warpx2_02_13 = auto()
    warpx2_01_23 = auto()
    warpx4 = auto()

    @property
    def isa_multicast(self) -> isa.CpMulticast | None:
        return None if self is CpMulticast.none else isa.CpMulticast(self.value.replace("x2_", "x2::"))


class CpSrcFormat(StrEnum):
    b6x16_p32 = auto()
    b4x16_p64 = auto()


@irdl_attr_definition
class CpShapeAttr(Angled, EnumAttribute[CpShape]):
    name = "nvvm.tcgen05_cp_shape"


@irdl_attr_definition
class CpMulticastAttr(Angled, EnumAttribute[CpMulticast]):
    name = "nvvm.tcgen05_cp_multicast"


@irdl_attr_definition
class CpSrcFormatAttr(Bracketed, EnumAttribute[CpSrcFormat]):
    name = "nvvm.tcgen05_cp_src_fmt"


NO_MULTICAST = CpMulticastAttr(CpMulticast.none)


_CP_SHAPE = Clause("shape", "shape", CpShapeAttr, lead=", ", always=True)
_CP_GROUP = Clause("group", "group", CTAGroupKindAttr, default=CTA_1)
_CP_MULTICAST = Clause("multicast", "multicast", CpMulticastAttr, default=NO_MULTICAST)
_CP_SOURCE = Clause("source_format", "srcFormat", CpSrcFormatAttr)


@irdl_op_definition
class Tcgen05CpOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.tcgen05.cp"

    taddr = operand_def(TMEM_POINTER)
    smem_desc = operand_def(i64)
    shape = prop_def(CpShapeAttr)
    group = prop_def(CTAGroupKindAttr, default_value=CTA_1)
    multicast = prop_def(CpMulticastAttr, default_value=NO_MULTICAST)
    srcFormat = opt_prop_def(CpSrcFormatAttr)

    CLAUSES: ClassVar = (_CP_SHAPE, _CP_GROUP, _CP_MULTICAST, _CP_SOURCE)

    def __init__(self, taddr, smem_desc, shape: isa.CpShape, cta_group: int = 1,
                 multicast: isa.CpMulticast | None = None, source: isa.CpSourceFormat | None = None):  # fmt: skip
        props: dict[str, Attribute] = {
            "shape": CpShapeAttr(CpShape("shape_" + shape.value)),
            "group": CTAGroupKindAttr(CTAGroupKind.of(cta_group)),
            "multicast": CpMulticastAttr(
                CpMulticast.none if multicast is None else CpMulticast(multicast.value.replace("::", "_"))
            ),
        }
        if source is not None:
            props["srcFormat"] = CpSrcFormatAttr(CpSrcFormat(source.value))
        super().__init__(operands=[taddr, smem_desc], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> Tcgen05CpOp:
        taddr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        desc = parser.parse_unresolved_operand()
        props = parse_clauses(parser, cls.CLAUSES)
        attrs = parser.parse_optional_attr_dict()
        operands = [parser.resolve_operand(taddr, TMEM_POINTER), parser.resolve_operand(desc, i64)]
        return cls.create(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.taddr, self.smem_desc])
        print_clauses(printer, self, self.CLAUSES)
        printer.print_op_attributes(self.attributes)

    @property
    def cta_group_value(self) -> int:
        return self.group.data.count

    @property
    def isa_shape(self) -> isa.CpShape:
        return self.shape.data.isa_shape

    @property
    def isa_multicast(self) -> isa.CpMulticast | None:
        return self.multicast.data.isa_multicast

    @property
    def isa_source(self) -> isa.CpSourceFormat | None:
        return None if self.srcFormat is None else isa.CpSourceFormat(self.srcFormat.data.value)

    def verify_(self) -> None:
        verify_isa(isa.cp_form_error(self.isa_shape, self.isa_multicast))

    def tmem_effect(self) -> TMEMEffect:
        fp = isa.cp_footprint(self.isa_shape, self.isa_multicast)
        return TMEMEffect(EffectKind.CP, self.taddr, self.cta_group_value, extent=(max(fp.lane_set) + 1, fp.columns))


@irdl_op_definition
class Tcgen05ShiftOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.tcgen05.shift"

    taddr = operand_def(TMEM_POINTER)
    group = prop_def(CTAGroupKindAttr, default_value=CTA_1)

    CLAUSES: ClassVar = (Clause("group", "group", CTAGroupKindAttr, lead=", ", default=CTA_1),)

    def __init__(self, taddr: SSAValue | Operation, cta_group: int = 1):
        super().__init__(operands=[taddr], properties={"group": CTAGroupKindAttr(CTAGroupKind.of(cta_group))})

    @classmethod
    def parse(cls, parser: Parser) -> Tcgen05ShiftOp:
        taddr = parser.parse_unresolved_operand()
        props = parse_clauses(parser, cls.CLAUSES)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(taddr, t)], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.taddr])
        print_clauses(printer, self, self.CLAUSES)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.taddr.type)

    @property
    def cta_group_value(self) -> int:
        return self.group.data.count

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.SHIFT, self.taddr, self.cta_group_value, extent=(isa.SHIFT_LANES, isa.SHIFT_COLUMNS))

    def tmem_lane_alignment(self, operand: SSAValue) -> int:
        """taddr's lane must be a multiple of isa.SHIFT_LANE_ALIGNMENT (PTX ISA 9.7.16.9.3)."""
        return isa.SHIFT_LANE_ALIGNMENT if operand is self.taddr else 1


@irdl_op_definition
class Tcgen05CommitOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.tcgen05.commit"

    addr = operand_def(llvm.LLVMPointerType)
    multicastMask = opt_operand_def(i16)
    group = prop_def(CTAGroupKindAttr, default_value=CTA_1)
    smem_a_read = prop_def(BoolAttr, default_value=FALSE)

    CLAUSES: ClassVar = (Clause("group", "group", CTAGroupKindAttr, default=CTA_1),)

    def __init__(self, addr: SSAValue | Operation, cta_group: int = 1, mask: SSAValue | Operation | None = None):
        super().__init__(
            operands=[addr, [] if mask is None else [mask]],
            properties={"group": CTAGroupKindAttr(CTAGroupKind.of(cta_group))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Tcgen05CommitOp:
        addr = parser.parse_unresolved_operand()
        mask = None
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("multicast_mask")
            parser.parse_punctuation("=")
            mask = parser.parse_unresolved_operand()
        props = parse_clauses(parser, cls.CLAUSES)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        operands = [parser.resolve_operand(addr, types[0])]
        if mask is not None:
            operands.append(parser.resolve_operand(mask, types[1] if len(types) > 1 else i16))
        return cls.create(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.addr])
        if self.multicastMask is not None:
            printer.print_string(", multicast_mask = ")
            printer.print_operand(self.multicastMask)
        print_clauses(printer, self, self.CLAUSES)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)

    @property
    def cta_group_value(self) -> int:
        return self.group.data.count

    def verify_(self) -> None:
        _check_barrier_pointer(self.addr)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.COMMIT, cta_group=self.cta_group_value, mbarrier=self.addr, multicast=self.multicastMask)
