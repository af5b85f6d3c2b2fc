"""The tcgen05 dialect's descriptors as values: the SMEM matrix descriptor and the instruction descriptor.

Shared-memory descriptors are i64, instruction descriptors i32; their constant fields are checked
against `isa`'s field widths and granules.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects.builtin import I32, IntegerAttr, UnitAttr, i32, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.dialects.nvvm import constant_int


def _checks(errors: list[str]) -> None:
    if errors:
        raise VerifyException("; ".join(errors))


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


class SwizzleKind(StrEnum):
    none = auto()
    swizzle_32b = auto()
    swizzle_64b = auto()
    swizzle_128b = auto()
    swizzle_128b_base32b = auto()

    @property
    def isa_swizzle(self) -> isa.Swizzle:
        return _SWIZZLE[self]


_SWIZZLE = {
    SwizzleKind.none: isa.Swizzle.NONE,
    SwizzleKind.swizzle_32b: isa.Swizzle.B32,
    SwizzleKind.swizzle_64b: isa.Swizzle.B64,
    SwizzleKind.swizzle_128b: isa.Swizzle.B128,
    SwizzleKind.swizzle_128b_base32b: isa.Swizzle.B128_ATOM32,
}


class ElementKind(StrEnum):
    """Element types an instruction descriptor names (isa.DType)."""

    f16 = auto()
    bf16 = auto()
    tf32 = auto()
    f32 = auto()
    e4m3 = auto()
    e5m2 = auto()
    e2m3 = auto()
    e3m2 = auto()
    e2m1 = auto()
    u8 = auto()
    s8 = auto()
    s32 = auto()
    ue8m0 = auto()
    ue4m3 = auto()

    @property
    def isa_dtype(self) -> isa.DType:
        return isa.DType(self.value)


@irdl_attr_definition
class MMAKindAttr(EnumAttribute[MMAKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.mma_kind"


@irdl_attr_definition
class SwizzleAttr(EnumAttribute[SwizzleKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.swizzle"


@irdl_attr_definition
class ElementAttr(EnumAttribute[ElementKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.element"


def _int(attr: IntegerAttr | None) -> int | None:
    return None if attr is None else attr.value.data


# ---------------------------------------------------------------------------------------------
# Descriptors as values
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class SmemDescOp(IRDLOperation):
    """Build a 64-bit shared-memory matrix descriptor from its named fields.

    The start address is a value (a shared-memory byte address); LBO, SBO, base offset, LBO mode
    and swizzle are constants, checked against the ISA's field widths and granules.
    """

    name = "tcgen05.smem_desc"

    address = operand_def(i32)
    lbo = prop_def(IntegerAttr[I32])
    sbo = prop_def(IntegerAttr[I32])
    swizzle = prop_def(SwizzleAttr)
    base_offset = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    lbo_mode = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    result = result_def(i64)

    assembly_format = (
        "$address `lbo` $lbo `sbo` $sbo $swizzle (`base_offset` $base_offset^)? "
        "(`lbo_mode` $lbo_mode^)? attr-dict"
    )

    def __init__(
        self,
        address: SSAValue | Operation,
        lbo: int,
        sbo: int,
        swizzle: SwizzleKind = SwizzleKind.none,
        base_offset: int = 0,
        lbo_mode: int = 0,
    ):
        super().__init__(
            operands=[address],
            result_types=[i64],
            properties={
                "lbo": IntegerAttr(lbo, i32),
                "sbo": IntegerAttr(sbo, i32),
                "swizzle": SwizzleAttr(swizzle),
                "base_offset": IntegerAttr(base_offset, i32),
                "lbo_mode": IntegerAttr(lbo_mode, i32),
            },
        )

    def descriptor(self, start_address: int = 0) -> isa.SmemDescriptor:
        return isa.SmemDescriptor(
            start_address=start_address,
            leading_byte_offset=self.lbo.value.data,
            stride_byte_offset=self.sbo.value.data,
            base_offset=self.base_offset.value.data,
            lbo_mode=self.lbo_mode.value.data,
            swizzle=self.swizzle.data.isa_swizzle,
        )

    def verify_(self) -> None:
        start = constant_int(self.address)
        errors = self.descriptor(start or 0).errors()
        _checks([e for e in errors if start is not None or not e.startswith("start address")])


_IDESC_FLAGS = ("transpose_a", "transpose_b", "negate_a", "negate_b", "sparse", "saturate", "k96")


@irdl_op_definition
class InstrDescOp(IRDLOperation):
    """A 32-bit instruction descriptor built from named fields (a constant).

    Shape legality (M, N per kind and cta_group) depends on the mma that uses the descriptor,
    so tcgen05.mma checks it; this op checks what the descriptor alone decides.
    """

    name = "tcgen05.instr_desc"

    kind = prop_def(MMAKindAttr)
    m = prop_def(IntegerAttr[I32])
    n = prop_def(IntegerAttr[I32])
    a_type = prop_def(ElementAttr)
    b_type = prop_def(ElementAttr)
    d_type = opt_prop_def(ElementAttr)
    scale_type = opt_prop_def(ElementAttr)
    transpose_a = opt_prop_def(UnitAttr)
    transpose_b = opt_prop_def(UnitAttr)
    negate_a = opt_prop_def(UnitAttr)
    negate_b = opt_prop_def(UnitAttr)
    sparse = opt_prop_def(UnitAttr)
    saturate = opt_prop_def(UnitAttr)
    k96 = opt_prop_def(UnitAttr)  # kind::mxf4 / mxf4nvf4: K = 96 (isa.k96_error)
    scale_a_id = opt_prop_def(IntegerAttr[I32])  # block-scaled kinds: the scale-factor A / B IDs
    scale_b_id = opt_prop_def(IntegerAttr[I32])
    result = result_def(i32)

    assembly_format = (
        "$kind `m` $m `n` $n `a` $a_type `b` $b_type (`d` $d_type^)? (`scale` $scale_type^)? "
        "(`scale_a_id` $scale_a_id^)? (`scale_b_id` $scale_b_id^)? "
        "(`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)? (`negate_a` $negate_a^)? "
        "(`negate_b` $negate_b^)? (`sparse` $sparse^)? (`saturate` $saturate^)? (`k96` $k96^)? attr-dict"
    )

    def __init__(
        self,
        kind: MMAKind,
        m: int,
        n: int,
        a_type: ElementKind,
        b_type: ElementKind,
        d_type: ElementKind | None = ElementKind.f32,
        *,
        scale_type: ElementKind | None = None,
        scale_a_id: int | None = None,
        scale_b_id: int | None = None,
        **flags: bool,
    ):
        props: dict[str, Attribute] = {
            "kind": MMAKindAttr(kind),
            "m": IntegerAttr(m, i32),
            "n": IntegerAttr(n, i32),
            "a_type": ElementAttr(a_type),
            "b_type": ElementAttr(b_type),
        }
        if d_type is not None:
            props["d_type"] = ElementAttr(d_type)
        if scale_type is not None:
            props["scale_type"] = ElementAttr(scale_type)
        if scale_a_id is not None:
            props["scale_a_id"] = IntegerAttr(scale_a_id, i32)
        if scale_b_id is not None:
            props["scale_b_id"] = IntegerAttr(scale_b_id, i32)
        for name, on in flags.items():
            if name not in _IDESC_FLAGS:
                raise TypeError(f"unknown instruction descriptor flag {name}")
            if on:
                props[name] = UnitAttr()
        super().__init__(result_types=[i32], properties=props)

    @property
    def descriptor(self) -> isa.InstrDescriptor:
        d = self.d_type.data.isa_dtype if self.d_type is not None else isa.DType.F32
        scale = self.scale_type.data.isa_dtype if self.scale_type is not None else None
        flags = {f: getattr(self, f) is not None for f in _IDESC_FLAGS}
        return isa.InstrDescriptor(
            kind=self.kind.data.isa_kind,
            m=self.m.value.data,
            n=self.n.value.data,
            a_type=self.a_type.data.isa_dtype,
            b_type=self.b_type.data.isa_dtype,
            d_type=d,
            scale_type=scale,
            a_scale_id=_int(self.scale_a_id) or 0,
            b_scale_id=_int(self.scale_b_id) or 0,
            **flags,
        )

    def verify_(self) -> None:
        errors = self.descriptor.errors(cta_group=None)
        if not self.kind.data.isa_kind.block_scaled and (self.scale_a_id is not None or self.scale_b_id is not None):
            errors.append(f"kind::{self.kind.data.value} has no scale factors (scale_a_id / scale_b_id)")
        _checks(errors)


def instr_descriptor_of(value: SSAValue, kind: isa.Kind) -> isa.InstrDescriptor | None:
    """The instruction descriptor a value is known to hold (tcgen05.instr_desc or a constant)."""
    owner = value.owner
    if isinstance(owner, InstrDescOp):
        return owner.descriptor
    raw = constant_int(value)
    if raw is None:
        return None
    try:
        return isa.decode_instr_descriptor(kind, raw & 0xFFFFFFFF)
    except ValueError:
        return None


DESC_OPS = [SmemDescOp, InstrDescOp]
DESC_ATTRS = [MMAKindAttr, SwizzleAttr, ElementAttr]
