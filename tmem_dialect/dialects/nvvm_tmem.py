"""nvvm.tcgen05.* TMEM ops with upstream syntax: alloc, dealloc, relinquish_alloc_permit, ld, st, wait, fence."""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I64,
    AnyVectorType,
    BoolAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.conventions import SHARED_ADDRESS_SPACE, TMEM_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import (
    CTA_1,
    FALSE,
    TMEM_POINTER,
    Bracketed,
    CTAGroupKind,
    CTAGroupKindAttr,
    constant_int,
)
from tmem_dialect.memory_model import EffectKind


class LdStShape(StrEnum):
    shape_16x64b = auto()
    shape_16x128b = auto()
    shape_16x256b = auto()
    shape_32x32b = auto()
    shape_16x32bx2 = auto()

    @property
    def isa_shape(self) -> isa.Shape:
        return isa.shape_from_ptx(self.value.removeprefix("shape_"))

    @staticmethod
    def of(shape: isa.Shape) -> LdStShape:
        return LdStShape("shape_" + shape.value)


class FenceKind(StrEnum):
    before = auto()
    after = auto()


class WaitKind(StrEnum):
    load = auto()
    store = auto()


@irdl_attr_definition
class LdStShapeAttr(Bracketed, EnumAttribute[LdStShape]):
    name = "nvvm.tcgen05_ldst_shape"


@irdl_attr_definition
class FenceKindAttr(Bracketed, EnumAttribute[FenceKind]):
    name = "nvvm.tcgen05_fence"


@irdl_attr_definition
class WaitKindAttr(Bracketed, EnumAttribute[WaitKind]):
    name = "nvvm.tcgen05_wait"


def _pointer_space(value: SSAValue) -> int | None:
    return pointer_address_space(value.type)


def _check_tmem_pointer(value: SSAValue, what: str) -> None:
    if _pointer_space(value) != TMEM_ADDRESS_SPACE:
        raise VerifyException(f"{what} must be a TMEM pointer !llvm.ptr<6>, got {value.type}")


class _GroupOp(IRDLOperation):
    group = prop_def(CTAGroupKindAttr, default_value=CTA_1)

    @property
    def cta_group_value(self) -> int:
        return self.group.data.count


@irdl_op_definition
class Tcgen05AllocOp(_GroupOp, TMEMEffectOp):
    name = "nvvm.tcgen05.alloc"

    addr = operand_def(llvm.LLVMPointerType)
    nCols = operand_def(i32)
    isExclusive = prop_def(BoolAttr, default_value=FALSE)

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$addr `,` $nCols (`,` `group` `=` $group^)? attr-dict `:` type(operands)"
    )

    def __init__(self, addr: SSAValue | Operation, ncols: SSAValue | Operation, cta_group: int = 1):
        super().__init__(
            operands=[addr, ncols],
            properties={"group": CTAGroupKindAttr(CTAGroupKind.of(cta_group))},
        )

    def verify_(self) -> None:
        if _pointer_space(self.addr) not in (0, SHARED_ADDRESS_SPACE):
            raise VerifyException(
                f"the address slot must be !llvm.ptr<3> or !llvm.ptr, got {self.addr.type}"
            )

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(
            EffectKind.ALLOC,
            self.addr,
            self.cta_group_value,
            ncols=constant_int(self.nCols),
            ncols_value=self.nCols,
        )


@irdl_op_definition
class Tcgen05DeallocOp(_GroupOp, TMEMEffectOp):
    name = "nvvm.tcgen05.dealloc"

    taddr = operand_def(llvm.LLVMPointerType)
    nCols = operand_def(i32)
    isExclusive = prop_def(BoolAttr, default_value=FALSE)

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$taddr `,` $nCols (`,` `group` `=` $group^)? attr-dict `:` type(operands)"
    )

    def __init__(self, taddr: SSAValue | Operation, ncols: SSAValue | Operation, cta_group: int = 1):
        super().__init__(
            operands=[taddr, ncols],
            properties={"group": CTAGroupKindAttr(CTAGroupKind.of(cta_group))},
        )

    def verify_(self) -> None:
        _check_tmem_pointer(self.taddr, "the TMEM address")

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(
            EffectKind.DEALLOC,
            self.taddr,
            self.cta_group_value,
            ncols=constant_int(self.nCols),
            ncols_value=self.nCols,
        )


@irdl_op_definition
class Tcgen05RelinquishAllocPermitOp(_GroupOp, TMEMEffectOp):
    name = "nvvm.tcgen05.relinquish_alloc_permit"

    assembly_format = "(`group` `=` $group^)? attr-dict"

    def __init__(self, cta_group: int = 1):
        super().__init__(properties={"group": CTAGroupKindAttr(CTAGroupKind.of(cta_group))})

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.RELINQUISH, cta_group=self.cta_group_value)


class _LdStOp(IRDLOperation, TMEMEffectOp):
    """Shared by nvvm.tcgen05.ld/st: num is implied by the vector length (upstream semantics)."""

    shape = prop_def(LdStShapeAttr)

    @property
    def isa_shape(self) -> isa.Shape:
        return self.shape.data.isa_shape

    @property
    def register_type(self) -> Attribute:
        raise NotImplementedError

    @property
    def tmem_address(self) -> SSAValue:
        raise NotImplementedError

    @property
    def offset_operand(self) -> SSAValue | None:
        raise NotImplementedError

    @property
    def register_count(self) -> int:
        t = self.register_type
        assert isinstance(t, VectorType)
        return t.get_shape()[0]

    @property
    def num_count(self) -> int:
        return self.register_count // self.isa_shape.regs_per_num

    @property
    def offset_value(self) -> int | None:
        off = self.offset_operand
        return None if off is None else constant_int(off)

    def verify_(self) -> None:
        _check_tmem_pointer(self.tmem_address, "the TMEM address")
        t = self.register_type
        shape = self.isa_shape
        if not isinstance(t, VectorType) or t.get_element_type() != i32 or len(t.get_shape()) != 1:
            raise VerifyException(f"registers must be vector<Nxi32>, got {t}")
        regs = self.register_count
        if regs % shape.regs_per_num:
            raise VerifyException(
                f"shape {shape.value} moves {shape.regs_per_num} registers per repetition; "
                f"{regs} is not a multiple"
            )
        if err := isa.num_error(shape, self.num_count):
            raise VerifyException(err)
        has_offset = self.offset_operand is not None
        if shape.needs_half_split_offset and not has_offset:
            raise VerifyException("shape_16x32bx2 requires the half-split offset operand")
        if not shape.needs_half_split_offset and has_offset:
            raise VerifyException("the offset operand is only allowed with shape_16x32bx2")
        if has_offset and self.offset_value is None:
            raise VerifyException("the half-split offset must come from a constant")

    def _effect(self, kind: EffectKind, registers: SSAValue, packed: bool) -> TMEMEffect:
        return TMEMEffect(
            kind,
            self.tmem_address,
            shape=self.isa_shape,
            num=self.num_count,
            packed=packed,
            offset=self.offset_value,
            registers=registers,
        )


I64_TYPE = IntegerType(64)


def _parse_ldst_tail(
    parser: Parser, flag_keyword: str, taddr: UnresolvedOperand | None = None
) -> tuple[UnresolvedOperand, UnresolvedOperand | None, bool, LdStShapeAttr, dict[str, Attribute]]:
    """`%taddr (, %offset)? (pack|unpack)? shape = shape_X attr-dict :` (upstream custom form)."""
    if taddr is None:
        taddr = parser.parse_unresolved_operand()
    offset = None
    if parser.parse_optional_punctuation(",") is not None:
        offset = parser.parse_unresolved_operand()
    flag = parser.parse_optional_keyword(flag_keyword) is not None
    if parser.parse_optional_keyword("shape") is None:
        # an older upstream spelling: `{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>, pack}`
        attrs = parser.parse_optional_attr_dict()
        shape_attr = attrs.pop("shape", None)
        if not isinstance(shape_attr, LdStShapeAttr):
            parser.raise_error("expected 'shape = shape_...' or {shape = #nvvm.tcgen05_ldst_shape<...>}")
        flag = flag or attrs.pop(flag_keyword, None) is not None
        parser.parse_punctuation(":")
        return taddr, offset, flag, shape_attr, attrs
    parser.parse_punctuation("=")
    shape = LdStShapeAttr(parser.parse_str_enum(LdStShape))
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    return taddr, offset, flag, shape, attrs


def _print_ldst_tail(
    printer: Printer, op: IRDLOperation, offset: SSAValue | None, flag: str | None
) -> None:
    if offset is not None:
        printer.print_string(", ")
        printer.print_operand(offset)
    if flag is not None:
        printer.print_string(f" {flag}")
    shape = op.properties["shape"]
    assert isinstance(shape, LdStShapeAttr)
    printer.print_string(f" shape = {shape.data.value}")
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")


@irdl_op_definition
class Tcgen05LdOp(_LdStOp):
    name = "nvvm.tcgen05.ld"

    tmemAddr = operand_def(TMEM_POINTER)
    offset = opt_operand_def(I64)
    pack = opt_prop_def(UnitAttr)
    res = result_def(AnyVectorType)

    @classmethod
    def parse(cls, parser: Parser) -> Tcgen05LdOp:
        taddr, offset, flag, shape, attrs = _parse_ldst_tail(parser, "pack")
        result_type = parser.parse_type()
        operands = [parser.resolve_operand(taddr, TMEM_POINTER)]
        offsets = [parser.resolve_operand(offset, I64_TYPE)] if offset is not None else []
        props: dict[str, Attribute] = {"shape": shape}
        if flag:
            props["pack"] = UnitAttr()
        op = cls.create(
            operands=[*operands, *offsets],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tmemAddr)
        _print_ldst_tail(printer, self, self.offset, "pack" if self.pack is not None else None)
        printer.print_attribute(self.res.type)

    def __init__(
        self,
        taddr: SSAValue | Operation,
        shape: isa.Shape,
        num: int,
        *,
        pack: bool = False,
        offset: SSAValue | Operation | None = None,
    ):
        props: dict[str, Attribute] = {"shape": LdStShapeAttr(LdStShape.of(shape))}
        if pack:
            props["pack"] = UnitAttr()
        super().__init__(
            operands=[taddr, [offset] if offset is not None else []],
            result_types=[VectorType(i32, [isa.regs_per_thread(shape, num)])],
            properties=props,
        )

    @property
    def register_type(self) -> Attribute:
        return self.res.type

    @property
    def tmem_address(self) -> SSAValue:
        return self.tmemAddr

    @property
    def offset_operand(self) -> SSAValue | None:
        return self.offset

    def tmem_effect(self) -> TMEMEffect:
        return self._effect(EffectKind.LD, self.res, self.pack is not None)


@irdl_op_definition
class Tcgen05StOp(_LdStOp):
    name = "nvvm.tcgen05.st"

    tmemAddr = operand_def(TMEM_POINTER)
    val = operand_def(AnyVectorType)
    offset = opt_operand_def(I64)
    unpack = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Tcgen05StOp:
        taddr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        _, offset, flag, shape, attrs = _parse_ldst_tail(parser, "unpack", taddr)
        value_type = parser.parse_type()
        operands = [
            parser.resolve_operand(taddr, TMEM_POINTER),
            parser.resolve_operand(value, value_type),
        ]
        if offset is not None:
            operands.append(parser.resolve_operand(offset, I64_TYPE))
        props: dict[str, Attribute] = {"shape": shape}
        if flag:
            props["unpack"] = UnitAttr()
        return cls.create(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tmemAddr)
        printer.print_string(", ")
        printer.print_operand(self.val)
        _print_ldst_tail(printer, self, self.offset, "unpack" if self.unpack is not None else None)
        printer.print_attribute(self.val.type)

    def __init__(
        self,
        taddr: SSAValue | Operation,
        value: SSAValue | Operation,
        shape: isa.Shape,
        *,
        unpack: bool = False,
        offset: SSAValue | Operation | None = None,
    ):
        props: dict[str, Attribute] = {"shape": LdStShapeAttr(LdStShape.of(shape))}
        if unpack:
            props["unpack"] = UnitAttr()
        super().__init__(
            operands=[taddr, value, [offset] if offset is not None else []],
            properties=props,
        )

    @property
    def register_type(self) -> Attribute:
        return self.val.type

    @property
    def tmem_address(self) -> SSAValue:
        return self.tmemAddr

    @property
    def offset_operand(self) -> SSAValue | None:
        return self.offset

    def tmem_effect(self) -> TMEMEffect:
        return self._effect(EffectKind.ST, self.val, self.unpack is not None)


@irdl_op_definition
class Tcgen05WaitOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.tcgen05.wait"

    kind = prop_def(WaitKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: WaitKind):
        super().__init__(properties={"kind": WaitKindAttr(kind)})

    def tmem_effect(self) -> TMEMEffect:
        load = self.kind.data is WaitKind.load
        return TMEMEffect(EffectKind.WAIT_LD if load else EffectKind.WAIT_ST)


@irdl_op_definition
class Tcgen05FenceOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.tcgen05.fence"

    kind = prop_def(FenceKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: FenceKind):
        super().__init__(properties={"kind": FenceKindAttr(kind)})

    def tmem_effect(self) -> TMEMEffect:
        before = self.kind.data is FenceKind.before
        return TMEMEffect(EffectKind.FENCE_BEFORE if before else EffectKind.FENCE_AFTER)


OPERATIONS = (
    Tcgen05AllocOp,
    Tcgen05DeallocOp,
    Tcgen05RelinquishAllocPermitOp,
    Tcgen05LdOp,
    Tcgen05StOp,
    Tcgen05WaitOp,
    Tcgen05FenceOp,
)
ATTRIBUTES = (LdStShapeAttr, FenceKindAttr, WaitKindAttr)
