"""The tcgen05 dialect's producers: mma, cp, shift, commit, and the descriptors they take.

TMEM addresses are i32, shared-memory descriptors i64, instruction descriptors i32, mbarriers
`!llvm.ptr<3>` (or a generic `!llvm.ptr`). Every rule a verifier checks is a fact of `isa`.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I32,
    I64,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
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
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.dialects.cta_group import CtaGroupOp
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.dialects.tcgen05_mbarrier import (
    MBARRIER_ATTRS,
    MBARRIER_OPS,
    check_mbarrier,
)
from tmem_dialect.memory_model import EffectKind

i16 = IntegerType(16)


def _check(error: str | None) -> None:
    if error is not None:
        raise VerifyException(error)


def _checks(errors: list[str]) -> None:
    if errors:
        raise VerifyException("; ".join(errors))


# ---------------------------------------------------------------------------------------------
# Enum attributes
# ---------------------------------------------------------------------------------------------


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


class ScaleVecKind(StrEnum):
    """`.scale_vec::1X` etc., spelled x1 / x2 / x4 / block16 / block32."""

    x1 = auto()
    x2 = auto()
    x4 = auto()
    block16 = auto()
    block32 = auto()

    @property
    def isa_scale_vec(self) -> isa.ScaleVec:
        return _SCALE_VEC[self]


_SCALE_VEC = {
    ScaleVecKind.x1: isa.ScaleVec.X1,
    ScaleVecKind.x2: isa.ScaleVec.X2,
    ScaleVecKind.x4: isa.ScaleVec.X4,
    ScaleVecKind.block16: isa.ScaleVec.BLOCK16,
    ScaleVecKind.block32: isa.ScaleVec.BLOCK32,
}


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
class ScaleVecAttr(EnumAttribute[ScaleVecKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.scale_vec"


@irdl_attr_definition
class CpShapeAttr(EnumAttribute[CpShapeKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.cp_shape"


@irdl_attr_definition
class CpMulticastAttr(EnumAttribute[CpMulticastKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.cp_multicast"


@irdl_attr_definition
class CpSourceAttr(EnumAttribute[CpSourceKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.cp_source"


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


_IDESC_FLAGS = ("transpose_a", "transpose_b", "negate_a", "negate_b", "sparse", "saturate")


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
    scale_a_id = opt_prop_def(IntegerAttr[I32])  # block-scaled kinds: the scale-factor A / B IDs
    scale_b_id = opt_prop_def(IntegerAttr[I32])
    result = result_def(i32)

    assembly_format = (
        "$kind `m` $m `n` $n `a` $a_type `b` $b_type (`d` $d_type^)? (`scale` $scale_type^)? "
        "(`scale_a_id` $scale_a_id^)? (`scale_b_id` $scale_b_id^)? "
        "(`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)? (`negate_a` $negate_a^)? "
        "(`negate_b` $negate_b^)? (`sparse` $sparse^)? (`saturate` $saturate^)? attr-dict"
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


# ---------------------------------------------------------------------------------------------
# tcgen05.mma
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class MmaOp(CtaGroupOp, TMEMEffectOp):
    """D[taddr] = A * B (+ D): one thread issues an M x N x K MMA, asynchronously.

    A is a shared-memory descriptor (i64) or a TMEM address (i32); B is a descriptor; idesc is the
    instruction descriptor; enable_input_d false overwrites D. Optional: the disable-output-lane
    mask, scale-input-d (f16/tf32), sparsity metadata (.sp), scale factors (block-scaled kinds),
    the zero-column mask (.ws).
    """

    name = "tcgen05.mma"

    d = operand_def(i32)
    a = operand_def(IntegerType)
    b = operand_def(i64)
    idesc = operand_def(i32)
    enable_input_d = operand_def(i1)
    sparse_metadata = opt_operand_def(i32)
    scale_a = opt_operand_def(i32)
    scale_b = opt_operand_def(i32)
    disable_output_lane = opt_operand_def(VectorType)
    zero_column_mask = opt_operand_def(i64)

    kind = prop_def(MMAKindAttr)
    ws = opt_prop_def(UnitAttr)
    scale_vec = opt_prop_def(ScaleVecAttr)
    scale_input_d = opt_prop_def(IntegerAttr[I64])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$kind (`ws` $ws^)? $d `,` $a `,` $b `,` $idesc `,` $enable_input_d "
        "(`sparse_metadata` $sparse_metadata^)? (`scale_a` $scale_a^)? (`scale_b` $scale_b^)? "
        "(`scale_vec` $scale_vec^)? (`mask` $disable_output_lane^ `:` type($disable_output_lane))? "
        "(`zero_columns` $zero_column_mask^)? (`scale_input_d` $scale_input_d^)? "
        "(`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($a)"
    )

    def __init__(
        self,
        kind: MMAKind,
        d: SSAValue | Operation,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        idesc: SSAValue | Operation,
        enable_input_d: SSAValue | Operation,
        *,
        cta_group: int = 1,
        ws: bool = False,
        sparse_metadata: SSAValue | Operation | None = None,
        scale_a: SSAValue | Operation | None = None,
        scale_b: SSAValue | Operation | None = None,
        scale_vec: ScaleVecKind | None = None,
        disable_output_lane: SSAValue | Operation | None = None,
        zero_column_mask: SSAValue | Operation | None = None,
        scale_input_d: int | None = None,
    ):
        props: dict[str, Attribute] = {"kind": MMAKindAttr(kind), "cta_group": IntegerAttr(cta_group, i32)}
        if ws:
            props["ws"] = UnitAttr()
        if scale_vec is not None:
            props["scale_vec"] = ScaleVecAttr(scale_vec)
        if scale_input_d is not None:
            props["scale_input_d"] = IntegerAttr(scale_input_d, i64)

        def opt(v: SSAValue | Operation | None) -> list[SSAValue | Operation]:
            return [] if v is None else [v]

        super().__init__(
            operands=[
                d, a, b, idesc, enable_input_d, opt(sparse_metadata), opt(scale_a), opt(scale_b),
                opt(disable_output_lane), opt(zero_column_mask),
            ],
            properties=props,
        )

    @property
    def isa_kind(self) -> isa.Kind:
        return self.kind.data.isa_kind

    @property
    def a_in_tmem(self) -> bool:
        return self.a.type == i32

    @property
    def isa_scale_vec(self) -> isa.ScaleVec | None:
        return None if self.scale_vec is None else self.scale_vec.data.isa_scale_vec

    @property
    def sparse(self) -> bool:
        return self.sparse_metadata is not None

    def verify_(self) -> None:
        super().verify_()
        kind, cg, ws = self.isa_kind, self.cta_group_value, self.ws is not None
        if self.a.type not in (i32, i64):
            raise VerifyException(f"A is a shared-memory descriptor (i64) or a TMEM address (i32), got {self.a.type}")
        _check(
            isa.form_error(
                kind, cg, ws=ws, sparse=self.sparse, a_tmem=self.a_in_tmem,
                scale_input_d=self.scale_input_d is not None,
                disable_output_lane=self.disable_output_lane is not None,
                scale_vec=self.isa_scale_vec, zero_column_mask=self.zero_column_mask is not None,
            )
        )  # fmt: skip
        has_scales = (self.scale_a is not None, self.scale_b is not None)
        if kind.block_scaled and has_scales != (True, True):
            raise VerifyException(f"kind::{kind.value} needs both scale-factor operands (scale_a, scale_b) in TMEM")
        if not kind.block_scaled and any(has_scales):
            raise VerifyException(f"kind::{kind.value} takes no scale factors (only mxf8f6f4, mxf4, mxf4nvf4 do)")
        if self.scale_input_d is not None:
            _check(isa.scale_input_d_error(self.scale_input_d.value.data))
        if (mask := self.disable_output_lane) is not None:
            want = VectorType(i32, [isa.disable_output_lane_count(cg)])
            if mask.type != want:
                raise VerifyException(f"disable-output-lane with cta_group::{cg} is {want}, got {mask.type}")
        desc = instr_descriptor_of(self.idesc, kind)
        if desc is not None:
            errors = desc.errors(cg, ws)
            if desc.sparse != self.sparse:
                errors.append(
                    "the instruction descriptor's sparsity flag and the sparsity metadata operand disagree"
                )
            if kind.block_scaled:
                for role, sid in (("A", desc.a_scale_id), ("B", desc.b_scale_id)):
                    if err := isa.scale_id_error(kind, self.isa_scale_vec, sid):
                        errors.append(f"scale {role}: {err}")
            _checks([f"instruction descriptor: {e}" for e in errors])

    def tmem_effect(self) -> TMEMEffect:
        reads = tuple(
            v for v in (self.a if self.a_in_tmem else None, self.sparse_metadata, self.scale_a, self.scale_b)
            if v is not None
        )  # fmt: skip
        desc = instr_descriptor_of(self.idesc, self.isa_kind)
        extent = isa.d_extent(desc) if desc is not None else None
        return TMEMEffect(
            EffectKind.MMA,
            self.d,
            self.cta_group_value,
            tmem_reads=reads,
            extent=extent,
            accumulate=self.enable_input_d,
        )


# ---------------------------------------------------------------------------------------------
# tcgen05.cp, tcgen05.shift, tcgen05.commit
# ---------------------------------------------------------------------------------------------


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
        _check(isa.cp_form_error(self.isa_shape, self.isa_multicast))

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



ASYNC_OPS = [SmemDescOp, InstrDescOp, MmaOp, CpOp, ShiftOp, CommitOp, *MBARRIER_OPS]
ASYNC_ATTRS = [
    MMAKindAttr, ScaleVecAttr, CpShapeAttr, CpMulticastAttr, CpSourceAttr, SwizzleAttr, ElementAttr,
    *MBARRIER_ATTRS,
]  # fmt: skip
