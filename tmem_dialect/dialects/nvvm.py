"""The upstream-compatible subset of MLIR's NVVM dialect: nvvm.tcgen05.*, special registers, barrier.

Names, properties and custom assembly follow upstream MLIR (as shipped in
iree-base-compiler 3.13.0), so text printed here parses there unchanged and vice versa.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    AnyVectorType,
    BoolAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
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
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.conventions import SHARED_ADDRESS_SPACE, TMEM_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects import nvvm_warp
from tmem_dialect.dialects.llvm_compat import NVVMTargetAttr
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.llvm_ext import ConstantRangeAttr
from tmem_dialect.memory_model import EffectKind



class CTAGroupKind(StrEnum):
    cta_1 = auto()
    cta_2 = auto()

    @property
    def count(self) -> int:
        return int(self.value[-1])

    @staticmethod
    def of(count: int) -> CTAGroupKind:
        return CTAGroupKind(f"cta_{count}")


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


class ShflKind(StrEnum):
    bfly = auto()
    up = auto()
    down = auto()
    idx = auto()


class Bracketed:
    """Mixin for enum attributes printed `<value>` in both forms, as upstream prints
    `#nvvm.cta_group<cta_2>` (generic) and `group = <cta_2>` (custom)."""

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        super().print_parameter(printer)  # type: ignore[misc]
        printer.print_string(">")

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]


@irdl_attr_definition
class CTAGroupKindAttr(Bracketed, EnumAttribute[CTAGroupKind]):
    name = "nvvm.cta_group"


@irdl_attr_definition
class LdStShapeAttr(Bracketed, EnumAttribute[LdStShape]):
    name = "nvvm.tcgen05_ldst_shape"


@irdl_attr_definition
class FenceKindAttr(Bracketed, EnumAttribute[FenceKind]):
    name = "nvvm.tcgen05_fence"


@irdl_attr_definition
class WaitKindAttr(Bracketed, EnumAttribute[WaitKind]):
    name = "nvvm.tcgen05_wait"


@irdl_attr_definition
class ShflKindAttr(Bracketed, EnumAttribute[ShflKind]):
    name = "nvvm.shfl_kind"


CTA_1 = CTAGroupKindAttr(CTAGroupKind.cta_1)
FALSE = BoolAttr.from_bool(False)
TRUE = BoolAttr.from_bool(True)


TMEM_POINTER = llvm.LLVMPointerType(IntAttr(TMEM_ADDRESS_SPACE))
SHARED_POINTER = llvm.LLVMPointerType(IntAttr(SHARED_ADDRESS_SPACE))


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


@irdl_op_definition
class BarrierOp(IRDLOperation, TMEMEffectOp):
    """`bar.sync id{, count}` (CTA barrier 0 when no id is given)."""

    name = "nvvm.barrier"

    barrierId = opt_operand_def(i32)
    numberOfThreads = opt_operand_def(i32)
    aligned = prop_def(BoolAttr, default_value=TRUE)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    assembly_format = (
        "(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)? attr-dict"
    )

    @classmethod
    def create(cls, *, properties=None, **kwargs):  # type: ignore[override]
        """Newer upstream has a third operand segment (a barrier.red predicate); read it when empty."""
        props = dict(properties or {})
        segments = props.get("operandSegmentSizes")
        if isinstance(segments, DenseArrayBase) and len(sizes := tuple(segments.get_values())) == 3:
            if sizes[2]:
                raise VerifyException("nvvm.barrier with a reduction predicate (barrier.red) is not supported")
            props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, list(sizes[:2]))
        return super().create(properties=props, **kwargs)

    def __init__(self, barrier_id: SSAValue | None = None, threads: SSAValue | None = None):
        super().__init__(
            operands=[
                [barrier_id] if barrier_id is not None else [],
                [threads] if threads is not None else [],
            ]
        )

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BARRIER)


class _ClusterBarrierOp(IRDLOperation):
    """barrier.cluster.{arrive,wait}: all threads of the cluster (both CTAs of a pair) meet."""

    aligned = opt_prop_def(UnitAttr)

    assembly_format = "(`aligned` $aligned^)? attr-dict"

    def __init__(self, aligned: bool = False):
        super().__init__(properties={"aligned": UnitAttr()} if aligned else {})


@irdl_op_definition
class ClusterArriveOp(_ClusterBarrierOp):
    """`barrier.cluster.arrive`: arrive at the cluster barrier (release) without waiting."""

    name = "nvvm.cluster.arrive"


@irdl_op_definition
class ClusterArriveRelaxedOp(_ClusterBarrierOp):
    """`barrier.cluster.arrive.relaxed`: arrive with no memory ordering."""

    name = "nvvm.cluster.arrive.relaxed"


@irdl_op_definition
class ClusterWaitOp(_ClusterBarrierOp):
    """`barrier.cluster.wait`: wait until every thread of the cluster arrived (acquire)."""

    name = "nvvm.cluster.wait"


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """`shfl.sync.{bfly,up,down,idx}.b32 d, a, b, c, membermask` (upstream nvvm.shfl.sync).

    `idx` with offset 0 and clamp 31 broadcasts lane 0's value: CuTe's "make warp uniform"."""

    name = "nvvm.shfl.sync"

    kind = prop_def(ShflKindAttr)
    thread_mask = operand_def(i32)
    val = operand_def()
    offset = operand_def(i32)
    mask_and_clamp = operand_def(i32)
    res = result_def()

    # Upstream prints the kind bare here (`nvvm.shfl.sync idx ...`) but bracketed in the generic
    # form (`#nvvm.shfl_kind<idx>`); a declarative format would print ShflKindAttr's brackets.
    @classmethod
    def parse(cls, parser: Parser) -> ShflSyncOp:
        kind = ShflKindAttr(parser.parse_str_enum(ShflKind))
        unresolved = [parser.parse_unresolved_operand()]
        for _ in range(3):
            parser.parse_punctuation(",")
            unresolved.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        val_type = parser.parse_type()
        parser.parse_punctuation("->")
        res_type = parser.parse_type()
        types = (i32, val_type, i32, i32)
        op = cls.create(
            operands=[parser.resolve_operand(u, ty) for u, ty in zip(unresolved, types)],
            result_types=[res_type],
            properties={"kind": kind},
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data.value} ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.val.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        # (upstream's return_value_and_is_valid form, a struct with the valid bit, is not modelled)
        if self.res.type != self.val.type:
            raise VerifyException(f"the result type {self.res.type} must be the value type {self.val.type}")


@irdl_op_definition
class BarrierArriveOp(IRDLOperation):
    """`bar.arrive id, count`: count this warp's threads toward barrier `id` (0 when no id is
    given) and go on without waiting; the threads that wait there (bar.sync) are ordered after
    what the arriving threads did before (PTX ISA, barrier{.cta}: bar.arrive)."""

    name = "nvvm.barrier.arrive"

    barrierId = opt_operand_def(i32)
    numberOfThreads = operand_def(i32)

    assembly_format = "(`id` `=` $barrierId^)? `number_of_threads` `=` $numberOfThreads attr-dict"

    def __init__(self, threads: SSAValue, barrier_id: SSAValue | None = None):
        super().__init__(operands=[[barrier_id] if barrier_id is not None else [], threads])


class SpecialRegister(IRDLOperation):
    """`nvvm.read.ptx.sreg.*`: one PTX special register, read as i32."""

    res = result_def(i32)
    range = opt_prop_def(ConstantRangeAttr)

    assembly_format = "(`range` $range^)? attr-dict `:` type($res)"

    def __init__(self):
        super().__init__(result_types=[i32])

    @property
    def ptx_register(self) -> str:
        """The PTX spelling, e.g. `%tid.x`, `%cluster_ctarank` (upstream: `sreg.cluster.ctarank`)."""
        return "%" + ptx_register_name(self.name.removeprefix("nvvm.read.ptx.sreg."))


def ptx_register_name(sreg: str) -> str:
    """The PTX name of upstream's `nvvm.read.ptx.sreg.<sreg>`: `cluster.ctaid.x` is `cluster_ctaid.x`."""
    return sreg.replace("cluster.", "cluster_", 1) if sreg.startswith("cluster.") else sreg


def sreg_name(ptx: str) -> str:
    """The inverse of ptx_register_name: `cluster_ctarank` -> `cluster.ctarank`."""
    return ptx.replace("cluster_", "cluster.", 1) if ptx.startswith("cluster_") else ptx


def _special_register(op_name: str, register: str) -> type[SpecialRegister]:
    cls = type(
        "Read" + register.replace("%", "").replace(".", "_").title().replace("_", "") + "Op",
        (SpecialRegister,),
        {"name": op_name, "__doc__": f"Read `{register}`."},
    )
    return irdl_op_definition(cls)


SPECIAL_REGISTERS: tuple[type[SpecialRegister], ...] = tuple(
    _special_register(f"nvvm.read.ptx.sreg.{name}", f"%{name}")
    for name in (
        *(f"{base}.{d}" for base in ("tid", "ntid", "ctaid", "nctaid") for d in "xyz"),
        "laneid",
        "warpid",
        "nwarpid",
        # clusters (PTX %clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid, %cluster_ctarank, ...)
        *(f"{base}.{d}" for base in ("clusterid", "nclusterid", "cluster.ctaid", "cluster.nctaid") for d in "xyz"),
        "cluster.ctarank",
        "cluster.nctarank",
    )
)
SPECIAL_REGISTER_BY_NAME = {op.name: op for op in SPECIAL_REGISTERS}


def constant_int(value: SSAValue) -> int | None:
    """The integer a value is defined to be by llvm.mlir.constant / arith.constant, if it is."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None  # a block argument
    attr = getattr(owner, "value", None)
    if owner.name in ("llvm.mlir.constant", "arith.constant") and isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def _build_dialect() -> Dialect:
    # nvvm_async builds on this module's attributes, so its ops join the dialect lazily.
    from tmem_dialect.dialects.nvvm_async import ASYNC_ATTRS, ASYNC_OPS
    from tmem_dialect.dialects import nvvm_cluster

    return Dialect(
        "nvvm",
        [
            *ASYNC_OPS,
            Tcgen05AllocOp,
            Tcgen05DeallocOp,
            Tcgen05RelinquishAllocPermitOp,
            Tcgen05LdOp,
            Tcgen05StOp,
            Tcgen05WaitOp,
            Tcgen05FenceOp,
            BarrierOp,
            BarrierArriveOp,
            ShflSyncOp,
            ClusterArriveOp,
            ClusterArriveRelaxedOp,
            ClusterWaitOp,
            *SPECIAL_REGISTERS,
            *nvvm_warp.OPERATIONS,
            *nvvm_cluster.OPERATIONS,
        ],
        [
            CTAGroupKindAttr, LdStShapeAttr, FenceKindAttr, WaitKindAttr, ShflKindAttr, *ASYNC_ATTRS,
            NVVMTargetAttr, *nvvm_warp.ATTRIBUTES, *nvvm_cluster.ATTRIBUTES,
        ],
    )


_DIALECT: list[Dialect] = []


def __getattr__(name: str) -> Dialect:
    if name == "NVVM":
        if not _DIALECT:
            _DIALECT.append(_build_dialect())
        return _DIALECT[0]
    raise AttributeError(name)
