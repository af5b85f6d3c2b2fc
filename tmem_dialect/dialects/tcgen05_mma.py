"""The tcgen05 dialect's tcgen05.mma: one thread's asynchronous M x N x K MMA into TMEM.

TMEM addresses are i32, shared-memory descriptors i64, instruction descriptors i32. Every rule the
verifier checks is a fact of `isa`.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects.builtin import I64, IntegerAttr, IntegerType, UnitAttr, VectorType, i1, i32, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.dialects.cta_group import CtaGroupOp
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import verify_isa
from tmem_dialect.dialects.tcgen05_desc import MMAKind, MMAKindAttr, instr_descriptor_of
from tmem_dialect.memory_model import EffectKind


def _checks(errors: list[str]) -> None:
    if errors:
        raise VerifyException("; ".join(errors))


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


@irdl_attr_definition
class ScaleVecAttr(EnumAttribute[ScaleVecKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.scale_vec"


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
        verify_isa(
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
            verify_isa(isa.scale_input_d_error(self.scale_input_d.value.data))
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
            if desc.k96 and (err := isa.k96_scale_vec_error(self.isa_scale_vec)):
                errors.append(err)
            elif kind.block_scaled:
                for role, sid in (("A", desc.a_scale_id), ("B", desc.b_scale_id)):
                    if err := isa.scale_id_error(kind, self.isa_scale_vec, sid, desc.k96):
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
