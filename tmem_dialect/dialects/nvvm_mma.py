"""Upstream NVVM's tcgen05.mma family (.sp, .block_scale, .ws ...) and nvvm.tcgen05.mma_smem_desc, in iree-opt 3.13.0's exact custom syntax."""

from __future__ import annotations

from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyVectorType,
    UnitAttr,
    VectorType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.conventions import pointer_address_space
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import (
    TMEM_POINTER,
    CTAGroupKindAttr,
    constant_int,
    verify_isa,
)
from tmem_dialect.dialects.nvvm_custom import (
    Angled,
    Clause,
    _parse_operands,
    _parse_types,
    _print_operands,
    _print_types,
    parse_clauses,
    print_clauses,
)
from tmem_dialect.memory_model import EffectKind


class MMAKind(StrEnum):
    f16 = auto()
    tf32 = auto()
    f8f6f4 = auto()
    i8 = auto()
    mxf8f6f4 = auto()
    mxf4 = auto()
    mxf4nvf4 = auto()

    @property
    def isa_kind(self) -> isa.Kind:
        return isa.Kind(self.value)


class CollectorOp(StrEnum):
    discard = auto()
    lastuse = auto()
    fill = auto()
    use = auto()


class BlockScale(StrEnum):
    default = auto()
    block16 = auto()
    block32 = auto()


class CollectorB(StrEnum):
    b0 = auto()
    b1 = auto()
    b2 = auto()
    b3 = auto()


@irdl_attr_definition
class MMAKindAttr(Angled, EnumAttribute[MMAKind]):
    name = "nvvm.tcgen05_mma_kind"


@irdl_attr_definition
class CollectorOpAttr(Angled, EnumAttribute[CollectorOp]):
    name = "nvvm.tcgen05_mma_collectorop"


@irdl_attr_definition
class BlockScaleAttr(Angled, EnumAttribute[BlockScale]):
    name = "nvvm.tcgen05_mma_block_scale"


@irdl_attr_definition
class CollectorBAttr(Angled, EnumAttribute[CollectorB]):
    name = "nvvm.tcgen05_mma_collectorb"


DISCARD = CollectorOpAttr(CollectorOp.discard)
DEFAULT_BLOCK_SCALE = BlockScaleAttr(BlockScale.default)
B0 = CollectorBAttr(CollectorB.b0)


# ---- the tcgen05.mma family -----------------------------------------------------------------

_KIND = Clause("kind", "kind", MMAKindAttr, lead=", ", always=True)
_KIND_WS = Clause("kind", "kind", MMAKindAttr, lead=" ", always=True)
_CTA = Clause("cta_group", "ctaGroup", CTAGroupKindAttr, lead=", ", always=True)
_BLOCK = Clause("block_scale", "blockScale", BlockScaleAttr, default=DEFAULT_BLOCK_SCALE)
_COLLECTOR_A = Clause("collector_a", "collectorOp", CollectorOpAttr, default=DISCARD)
_COLLECTOR_B = Clause("collector_b", "collectorOpB", CollectorOpAttr, default=DISCARD)
_A_SHIFT = Clause("a_shift", "aShift", None)
_WS_BUFFER = Clause("collector_b_buffer", "collectorBBuffer", CollectorBAttr, default=B0)
_WS_COLLECTOR = Clause("collector_b", "collectorOp", CollectorOpAttr, default=DISCARD)


class _MmaBase(IRDLOperation, TMEMEffectOp):
    """Shared by the six nvvm.tcgen05.mma ops: custom syntax, verification, the TMEM effect. Their
    operands and properties come from the operand-group bases below (_MmaOperands, ...)."""


    # what the custom form holds after the five common operands, in order
    TAIL_OPERANDS: ClassVar = ()
    KEYWORD_OPERANDS: ClassVar = ()  # (keyword, operand) as `keyword = %v`
    CLAUSES: ClassVar = ()
    WS: ClassVar = False
    SPARSE: ClassVar = False
    BLOCK_SCALED: ClassVar = False

    @property
    def isa_kind(self) -> isa.Kind:
        return self.kind.data.isa_kind

    @property
    def a_in_tmem(self) -> bool:
        return pointer_address_space(self.matrixA.type) == nvvm_tmem_space()

    @property
    def cta_group_value(self) -> int:
        group = self.properties.get("ctaGroup")
        return group.data.count if isinstance(group, CTAGroupKindAttr) else 1

    @classmethod
    def parse(cls, parser: Parser) -> _MmaBase:
        names = ["matrixD", "matrixA", "matrixB", "idesc", "enableInputD", *cls.TAIL_OPERANDS]
        unresolved = _parse_operands(parser)
        bound = dict(zip(names, unresolved))
        for keyword, operand in cls.KEYWORD_OPERANDS:
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("=")
                bound[operand] = parser.parse_unresolved_operand()
        props = parse_clauses(parser, cls.CLAUSES)
        attrs = parser.parse_optional_attr_dict()
        types = _parse_types(parser)
        order = [n for n in cls.operand_order() if n in bound]
        if len(order) != len(types):
            parser.raise_error(f"expected {len(order)} operand types, got {len(types)}")
        values = {n: parser.resolve_operand(bound[n], t) for n, t in zip(order, types)}
        return cls.build_from(values, props, attrs)

    @classmethod
    def operand_order(cls) -> list[str]:
        return [name for name, _ in cls.get_irdl_definition().operands]

    @classmethod
    def build_from(cls, values: dict[str, SSAValue], props: dict[str, Attribute], attrs: dict[str, Attribute]):
        operands = []
        for name, odef in cls.get_irdl_definition().operands:
            v = values.get(name)
            if type(odef).__name__ == "OptOperandDef":
                operands.append([] if v is None else [v])
            else:
                operands.append(v)
        return cls.create(
            operands=[x for o in operands for x in (o if isinstance(o, list) else [o])],
            properties=props | cls._segment_props(values),
            attributes=attrs,
        )

    @classmethod
    def _segment_props(cls, values: dict[str, SSAValue]) -> dict[str, Attribute]:
        from xdsl.dialects.builtin import DenseArrayBase

        if not any(isinstance(o, AttrSizedOperandSegments) for o in cls.get_irdl_definition().options):
            return {}
        sizes = [1 if n in values else 0 for n, _ in cls.get_irdl_definition().operands]
        return {"operandSegmentSizes": DenseArrayBase.from_list(i32, sizes)}

    def print(self, printer: Printer) -> None:
        names = ["matrixD", "matrixA", "matrixB", "idesc", "enableInputD", *self.TAIL_OPERANDS]
        values = [v for v in (getattr(self, n) for n in names) if v is not None]
        _print_operands(printer, values)
        for keyword, operand in self.KEYWORD_OPERANDS:
            if (v := getattr(self, operand)) is not None:
                printer.print_string(f" {keyword} = ")
                printer.print_operand(v)
        print_clauses(printer, self, self.CLAUSES)
        _print_types(printer, self)

    def verify_(self) -> None:
        a_space = pointer_address_space(self.matrixA.type)
        if self.matrixA.type != i64 and a_space != nvvm_tmem_space():
            raise VerifyException(f"matrix A is an i64 shared-memory descriptor or a TMEM pointer !llvm.ptr<6>, got {self.matrixA.type}")
        kind = self.isa_kind
        if kind.block_scaled != self.BLOCK_SCALED:
            if self.BLOCK_SCALED:
                raise VerifyException(f"{self.name} takes a block-scaled kind (mxf8f6f4, mxf4, mxf4nvf4), got {kind.value}")
            raise VerifyException(f"{self.name} takes kind f16, tf32, f8f6f4 or i8; {kind.value} is block scaled (use {self.name}.block_scale)")
        mask = getattr(self, "disableOutputLane", None)
        scale = getattr(self, "scaleInputD", None)
        verify_isa(isa.form_error(
            kind, self.cta_group_value, ws=self.WS, sparse=self.SPARSE, a_tmem=self.a_in_tmem,
            scale_input_d=scale is not None, disable_output_lane=mask is not None,
            scale_vec=self.isa_scale_vec, zero_column_mask=getattr(self, "zeroColMask", None) is not None,
        ))  # fmt: skip
        if mask is not None:
            want = VectorType(i32, [isa.disable_output_lane_count(self.cta_group_value)])
            if mask.type != want:
                raise VerifyException(f"disable-output-lane with cta_group::{self.cta_group_value} is {want}, got {mask.type}")
        if scale is not None and (c := constant_int(scale)) is not None:
            verify_isa(isa.scale_input_d_error(c))
        if self.properties.get("aShift") is not None and not self.a_in_tmem:
            raise VerifyException("A-shift can be applied only when matrix A is in tensor memory")

    @property
    def isa_scale_vec(self) -> isa.ScaleVec | None:
        block = self.properties.get("blockScale")
        if not isinstance(block, BlockScaleAttr) or block.data is BlockScale.default:
            return None
        return isa.ScaleVec.BLOCK16 if block.data is BlockScale.block16 else isa.ScaleVec.BLOCK32

    def tmem_effect(self) -> TMEMEffect:
        reads = tuple(
            v
            for v in (
                self.matrixA if self.a_in_tmem else None,
                getattr(self, "sparseMetadata", None),
                getattr(self, "scaleA", None),
                getattr(self, "scaleB", None),
            )
            if v is not None
        )
        extent = None
        if (raw := constant_int(self.idesc)) is not None:
            try:
                extent = isa.d_extent(isa.decode_instr_descriptor(self.isa_kind, raw & 0xFFFFFFFF))
            except ValueError:
                pass  # the verifier reports a malformed descriptor
        return TMEMEffect(
            EffectKind.MMA, self.matrixD, self.cta_group_value, tmem_reads=reads, extent=extent,
            accumulate=self.enableInputD
        )


def nvvm_tmem_space() -> int:
    return 6




# xDSL collects an op's fields along its MRO, the op class first. The operand groups below are
# bases listed in upstream's operand order (the five common operands, then each op's own), so
# every op keeps upstream's order without restating its operands.


class _MmaOperands(IRDLOperation):
    """D, A (i64 descriptor or TMEM pointer), B, idesc, enable-input-d, and the kind."""

    matrixD = operand_def(TMEM_POINTER)
    matrixA = operand_def()
    matrixB = operand_def(i64)
    idesc = operand_def(i32)
    enableInputD = operand_def(i1)
    kind = prop_def(MMAKindAttr)


class _SparseOperands(IRDLOperation):
    """The sparsity metadata of A (.sp), in TMEM."""

    sparseMetadata = operand_def(TMEM_POINTER)


class _ScaleAndMaskOperands(IRDLOperation):
    """The optional scale-input-d and disable-output-lane of the dense (not block-scaled) forms."""

    scaleInputD = opt_operand_def(i64)
    disableOutputLane = opt_operand_def(AnyVectorType)


class _BlockScaleOperands(IRDLOperation):
    """The scale factors of A and B in TMEM (.block_scale) and their block size."""

    scaleA = operand_def(TMEM_POINTER)
    scaleB = operand_def(TMEM_POINTER)
    blockScale = prop_def(BlockScaleAttr, default_value=DEFAULT_BLOCK_SCALE)


class _CtaCollectorProps(IRDLOperation):
    """cta_group and the A/B collector usage of the non-.ws forms."""

    ctaGroup = prop_def(CTAGroupKindAttr)
    collectorOp = prop_def(CollectorOpAttr, default_value=DISCARD)
    collectorOpB = prop_def(CollectorOpAttr, default_value=DISCARD)


class _WsOperands(IRDLOperation):
    """The .ws forms' optional zero-column mask, collector buffer and B collector usage."""

    zeroColMask = opt_operand_def(i64)
    collectorBBuffer = prop_def(CollectorBAttr, default_value=B0)
    collectorOp = prop_def(CollectorOpAttr, default_value=DISCARD)


@irdl_op_definition
class Tcgen05MMAOp(_MmaOperands, _ScaleAndMaskOperands, _CtaCollectorProps, _MmaBase):
    name = "nvvm.tcgen05.mma"
    aShift = opt_prop_def(UnitAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    KEYWORD_OPERANDS: ClassVar = (("scale", "scaleInputD"), ("mask", "disableOutputLane"))
    CLAUSES: ClassVar = (_KIND, _CTA, _COLLECTOR_A, _COLLECTOR_B, _A_SHIFT)


@irdl_op_definition
class Tcgen05MMASparseOp(_MmaOperands, _SparseOperands, _ScaleAndMaskOperands, _CtaCollectorProps, _MmaBase):
    name = "nvvm.tcgen05.mma.sp"
    aShift = opt_prop_def(UnitAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    TAIL_OPERANDS: ClassVar = ("sparseMetadata",)
    KEYWORD_OPERANDS: ClassVar = (("scale", "scaleInputD"), ("mask", "disableOutputLane"))
    CLAUSES: ClassVar = (_KIND, _CTA, _COLLECTOR_A, _COLLECTOR_B, _A_SHIFT)
    SPARSE: ClassVar = True


@irdl_op_definition
class Tcgen05MMABlockScaleOp(_MmaOperands, _BlockScaleOperands, _CtaCollectorProps, _MmaBase):
    name = "nvvm.tcgen05.mma.block_scale"
    TAIL_OPERANDS: ClassVar = ("scaleA", "scaleB")
    CLAUSES: ClassVar = (_KIND, _CTA, _BLOCK, _COLLECTOR_A, _COLLECTOR_B)
    BLOCK_SCALED: ClassVar = True


@irdl_op_definition
class Tcgen05MMASparseBlockScaleOp(_MmaOperands, _SparseOperands, _BlockScaleOperands, _CtaCollectorProps, _MmaBase):
    name = "nvvm.tcgen05.mma.sp.block_scale"
    TAIL_OPERANDS: ClassVar = ("sparseMetadata", "scaleA", "scaleB")
    CLAUSES: ClassVar = (_KIND, _CTA, _BLOCK, _COLLECTOR_A, _COLLECTOR_B)
    SPARSE: ClassVar = True
    BLOCK_SCALED: ClassVar = True


@irdl_op_definition
class Tcgen05MMAWsOp(_MmaOperands, _WsOperands, _MmaBase):
    name = "nvvm.tcgen05.mma.ws"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    TAIL_OPERANDS: ClassVar = ("zeroColMask",)
    CLAUSES: ClassVar = (_KIND_WS, _WS_BUFFER, _WS_COLLECTOR)
    WS: ClassVar = True


@irdl_op_definition
class Tcgen05MMAWsSparseOp(_MmaOperands, _SparseOperands, _WsOperands, _MmaBase):
    name = "nvvm.tcgen05.mma.ws.sp"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    TAIL_OPERANDS: ClassVar = ("sparseMetadata", "zeroColMask")
    CLAUSES: ClassVar = (_KIND_WS, _WS_BUFFER, _WS_COLLECTOR)
    WS: ClassVar = True
    SPARSE: ClassVar = True


MMA_OPS = (
    Tcgen05MMAOp,
    Tcgen05MMASparseOp,
    Tcgen05MMABlockScaleOp,
    Tcgen05MMASparseBlockScaleOp,
    Tcgen05MMAWsOp,
    Tcgen05MMAWsSparseOp,
)


@irdl_op_definition
class Tcgen05MmaSmemDescOp(IRDLOperation):
    """`nvvm.tcgen05.mma_smem_desc (start, lbo, sbo, base_offset, lbo_mode, swizzle)`; each field is
    the value of its bitfield (start, LBO and SBO already >> 4), placed at the ISA's bit position."""

    name = "nvvm.tcgen05.mma_smem_desc"

    startAddr = operand_def(i32)
    leadingDimOffset = operand_def(i32)
    strideDimOffset = operand_def(i32)
    baseOffset = operand_def(i8)
    leadingDimMode = operand_def(i1)
    swizzleMode = operand_def(i8)
    res = result_def(i64)

    assembly_format = "`(` operands `)` attr-dict `:` `(` type(operands) `)` `->` type($res)"

    def __init__(self, start, lbo, sbo, base_offset, lbo_mode, swizzle):  # type: ignore[no-untyped-def]
        super().__init__(operands=[start, lbo, sbo, base_offset, lbo_mode, swizzle], result_types=[i64])

    def verify_(self) -> None:
        if (sw := constant_int(self.swizzleMode)) is not None:
            verify_isa(isa.swizzle_error(sw & 0x7))
