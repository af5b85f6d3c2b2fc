"""Static legality of tcgen05.mma and tcgen05.cp agrees with ptxas: every form, asked of both.

A form of tcgen05.mma is kind x cta_group x A source (SMEM descriptor or TMEM) x .ws x .sp x the
optional operands (disable-output-lane, scale-input-d, the .ws zero-column mask) x the block
scale qualifier. Each form is asked of our verifiers (tcgen05.mma, and the upstream nvvm op where
upstream can spell it) and of `ptxas -arch=sm_100a` at PTX ISA 8.6, 8.7 and 8.8, all forms of one
version in one PTX file (ptxas reports every bad line of a file, so errors are attributed by line;
see test_ptxas_legality.ptxas_verdicts). M and N live in the instruction descriptor, a run-time
operand ptxas does not look into (tested below), so M x N legality is checked against the ISA's
shape table written out here, independently of isa.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from test_ptxas_legality import PTXAS, _accepts, needs_ptxas, ptxas_verdicts
from xdsl.dialects.builtin import VectorType, i1, i32, i64
from xdsl.dialects.test import TestOp as ValueSource

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm_async as up
from tmem_dialect.dialects import tcgen05_cp as cp
from tmem_dialect.dialects import tcgen05_desc as td
from tmem_dialect.dialects import tcgen05_mma as tc
from tmem_dialect.lowering.ptxas import run_ptxas

VERSIONS = ((8, 6), (8, 7), (8, 8))
SCALE_VECS = (None, *isa.ScaleVec)
_SCALE_VEC_KIND = {
    isa.ScaleVec.X1: tc.ScaleVecKind.x1,
    isa.ScaleVec.X2: tc.ScaleVecKind.x2,
    isa.ScaleVec.X4: tc.ScaleVecKind.x4,
    isa.ScaleVec.BLOCK16: tc.ScaleVecKind.block16,
    isa.ScaleVec.BLOCK32: tc.ScaleVecKind.block32,
}


@dataclass(frozen=True)
class MmaForm:
    kind: isa.Kind
    cta_group: int
    a_tmem: bool
    ws: bool
    sparse: bool
    mask: bool
    scale_input_d: bool
    zero_columns: bool
    scale_vec: isa.ScaleVec | None

    def __str__(self) -> str:
        extras = [n for n, on in (("A in TMEM", self.a_tmem), ("mask", self.mask),
                                  ("scale-input-d", self.scale_input_d), ("zero-column mask", self.zero_columns)) if on]
        mnemonic = isa.mma_mnemonic(self.kind, self.cta_group, ws=self.ws, sparse=self.sparse, scale_vec=self.scale_vec)
        return mnemonic + (f" ({', '.join(extras)})" if extras else "")

    def ptx(self) -> str:
        ops = ["[%r1]", "[%r2]" if self.a_tmem else "%rd1", "%rd2"]
        if self.sparse:
            ops.append("[%r3]")
        ops.append("%r4")
        if self.kind.block_scaled:
            ops += ["[%r5]", "[%r6]"]
        if self.mask:
            ops.append("{" + ", ".join(["%r7"] * isa.disable_output_lane_count(self.cta_group)) + "}")
        ops.append("%p1")
        if self.scale_input_d:
            ops.append("3")
        if self.zero_columns:
            ops.append("%rd3")
        mnemonic = isa.mma_mnemonic(self.kind, self.cta_group, ws=self.ws, sparse=self.sparse, scale_vec=self.scale_vec)
        return f"\t{mnemonic} {', '.join(ops)};\n"


def mma_forms() -> list[MmaForm]:
    forms = []
    for kind, cg, a_tmem, ws, sp, mask, scale, zcm in itertools.product(
        isa.Kind, (1, 2), (False, True), (False, True), (False, True), (False, True), (False, True), (False, True)
    ):
        if zcm and not ws:
            continue  # the zero-column mask is a trailing .ws operand: without .ws it reads as scale-input-d
        if scale and ws:
            continue  # on .ws a trailing immediate is the zero-column mask: the same text as zcm
        for sv in SCALE_VECS if kind.block_scaled else (None,):
            forms.append(MmaForm(kind, cg, a_tmem, ws, sp, mask, scale, zcm, sv))
    return forms


# The forms where the ISA and ptxas 13.0 disagree; we follow the ISA (9.7.16.10.9: "scale-input-d
# ... can be used only with .kind::f16 and .kind::tf32"). ptxas assembles kind::i8 with a trailing
# scale immediate when no disable-output-lane mask is given.
def isa_stricter_than_ptxas(form: MmaForm) -> bool:
    return form.kind is isa.Kind.I8 and form.scale_input_d


_VALUES: dict[object, object] = {}


def _value(t) -> object:  # type: ignore[no-untyped-def]
    """One operand of type t, shared by every op built here (verifiers look only at types)."""
    if t not in _VALUES:
        _VALUES[t] = ValueSource(result_types=[t]).res[0]
    return _VALUES[t]


_OURS: dict[MmaForm, bool] = {}


def tcgen05_accepts(form: MmaForm, version: tuple[int, int]) -> bool:
    """Our tcgen05.mma verifier, and the target-version rule the PTX emitter enforces."""
    if form not in _OURS:
        _OURS[form] = _verifier_accepts(form)
    return _OURS[form] and isa.min_ptx_version(form.kind, form.scale_vec) <= version


def _verifier_accepts(form: MmaForm) -> bool:
    op = tc.MmaOp(
        td.MMAKind(form.kind.value),
        _value(i32), _value(i32 if form.a_tmem else i64), _value(i64), _value(i32), _value(i1),
        cta_group=form.cta_group,
        ws=form.ws,
        sparse_metadata=_value(i32) if form.sparse else None,
        scale_a=_value(i32) if form.kind.block_scaled else None,
        scale_b=_value(i32) if form.kind.block_scaled else None,
        scale_vec=_SCALE_VEC_KIND[form.scale_vec] if form.scale_vec else None,
        disable_output_lane=_value(VectorType(i32, [isa.disable_output_lane_count(form.cta_group)])) if form.mask else None,
        zero_column_mask=_value(i64) if form.zero_columns else None,
        scale_input_d=3 if form.scale_input_d else None,
    )  # fmt: skip
    return _accepts(op)


def build_mma(version: tuple[int, int]):  # type: ignore[no-untyped-def]
    def build(forms: Sequence[object]) -> tuple[str, dict[int, object]]:
        # one function per cta_group: ptxas rejects a function that mixes them
        lines = [f".version {version[0]}.{version[1]}\n.target sm_100a\n.address_size 64\n\n"]
        at: dict[int, object] = {}
        for cg in (1, 2):
            mine = [f for f in forms if isinstance(f, MmaForm) and f.cta_group == cg]
            if not mine:
                continue
            lines += [f".visible .entry forms{cg}()\n{{\n", "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n",
                      "\t.reg .pred %p<2>;\n", "\tmov.u32 %r1, 0;\n\tmov.u64 %rd1, 0;\n\tmov.u64 %rd2, 0;\n",
                      "\tmov.u64 %rd3, 0;\n\tsetp.ne.u32 %p1, %r1, 0;\n"]  # fmt: skip
            for form in mine:
                lines.append(form.ptx())
                at["".join(lines).count("\n")] = form
            lines.append("\tret;\n}\n\n")
        return "".join(lines), at

    return build


def test_mma_enumeration() -> None:
    forms = mma_forms()
    assert len({str(f) for f in forms}) == len(forms)
    # per kind: cta_group x A x .sp x mask x (2 trailing choices without .ws, 2 with it) = 64
    assert len(forms) == 4 * 64 + 3 * 64 * len(SCALE_VECS)


@needs_ptxas
@pytest.mark.parametrize("version", VERSIONS, ids=lambda v: f"ptx{v[0]}.{v[1]}")
def test_mma_forms_match_ptxas(version: tuple[int, int]) -> None:
    forms = mma_forms()
    verdict = ptxas_verdicts(forms, build_mma(version))
    disagreements = []
    stricter = 0
    for form in forms:
        ours = tcgen05_accepts(form, version)
        if ours == verdict[form]:
            continue
        if not ours and verdict[form] and isa_stricter_than_ptxas(form):
            stricter += 1
            continue
        disagreements.append(f"{form}: ours {'accepts' if ours else 'rejects'}, ptxas {'accepts' if verdict[form] else 'rejects'}")
    assert not disagreements, "\n".join(disagreements)
    accepted = sum(verdict.values())
    print(f"PTX {version[0]}.{version[1]}: {len(forms)} mma forms, ptxas accepts {accepted}, "
          f"{stricter} i8 scale-input-d forms rejected by the ISA rule")  # fmt: skip
    assert accepted == {(8, 6): 156, (8, 7): 172, (8, 8): 220}[version]
    assert stricter == 12  # kind::i8 with scale-input-d: the A-source, .sp and mask forms ptxas takes


def test_nvvm_verifier_agrees_where_upstream_spells_the_form() -> None:
    """Upstream's ops name the block size (default/block16/block32), not scale_vec::NX; forms
    without a scale_vec qualifier or with .block16/.block32 are asked of the nvvm op too."""
    checked = 0
    for form in mma_forms():
        if form.scale_vec not in (None, isa.ScaleVec.BLOCK16, isa.ScaleVec.BLOCK32):
            continue
        op = _nvvm_mma(form)
        if op is None:
            continue
        checked += 1
        assert _accepts(op) == tcgen05_accepts(form, (8, 8)), str(form)
    assert checked == 232


def _nvvm_mma(form: MmaForm):  # type: ignore[no-untyped-def]
    tmem = up.TMEM_POINTER
    values = {"matrixD": _value(tmem), "matrixA": _value(tmem if form.a_tmem else i64), "matrixB": _value(i64),
              "idesc": _value(i32), "enableInputD": _value(i1)}  # fmt: skip
    props: dict = {"kind": up.MMAKindAttr(up.MMAKind(form.kind.value))}
    if form.sparse:
        values["sparseMetadata"] = _value(tmem)
    if form.mask:
        values["disableOutputLane"] = _value(VectorType(i32, [isa.disable_output_lane_count(form.cta_group)]))
    if form.scale_input_d:
        values["scaleInputD"] = _value(i64)
    if form.zero_columns:
        values["zeroColMask"] = _value(i64)
    if form.ws:
        if form.cta_group != 1 or form.kind.block_scaled or form.mask or form.scale_input_d:
            return None  # upstream's .ws ops have no cta_group, block-scaled kinds, mask or scale
        cls = up.Tcgen05MMAWsSparseOp if form.sparse else up.Tcgen05MMAWsOp
        props |= {"collectorBBuffer": up.B0, "collectorOp": up.DISCARD}
    else:
        props |= {"ctaGroup": up.CTAGroupKindAttr(up.CTAGroupKind.of(form.cta_group)),
                  "collectorOp": up.DISCARD, "collectorOpB": up.DISCARD}  # fmt: skip
        if form.kind.block_scaled:
            if form.mask or form.scale_input_d:
                return None  # upstream's block_scale ops have no such operands
            values["scaleA"], values["scaleB"] = _value(tmem), _value(tmem)
            block = {None: up.BlockScale.default, isa.ScaleVec.BLOCK16: up.BlockScale.block16,
                     isa.ScaleVec.BLOCK32: up.BlockScale.block32}[form.scale_vec]  # fmt: skip
            props["blockScale"] = up.BlockScaleAttr(block)
            cls = up.Tcgen05MMASparseBlockScaleOp if form.sparse else up.Tcgen05MMABlockScaleOp
        else:
            cls = up.Tcgen05MMASparseOp if form.sparse else up.Tcgen05MMAOp
    if form.zero_columns and not form.ws:
        return None
    return cls.build_from(values, props, {})


# ---- M x N: the ISA's table (9.7.16.2.1), written out independently of isa.py ----------------


def expected_shapes(kind: isa.Kind, cta_group: int, ws: bool, sparse: bool) -> set[tuple[int, int]]:
    if ws:
        if cta_group == 2 or kind.block_scaled:
            return set()
        return {(m, n) for m in (32, 64, 128) for n in ((64, 128) if sparse else (64, 128, 256))}
    if kind is isa.Kind.I8:
        if cta_group == 1:
            return {(m, n) for m in (64, 128) for n in [8, *range(16, 257, 16)]}
        return {(m, n) for m in (128, 256) for n in range(32, 257, 32)}
    if kind.block_scaled:
        if cta_group == 1:
            return {(128, n) for n in range(8, 257, 8)}
        return {(m, n) for m in ((256,) if sparse else (128, 256)) for n in range(16, 257, 16)}  # .sp: 256xNxK
    if cta_group == 1:
        return {(m, n) for m in (64, 128) for n in range(8, 257, 8)}
    return {(m, n) for m in (128, 256) for n in range(16, 257, 16)}


_TYPES = {
    isa.Kind.F16: (td.ElementKind.f16, td.ElementKind.f32, None),
    isa.Kind.TF32: (td.ElementKind.tf32, td.ElementKind.f32, None),
    isa.Kind.F8F6F4: (td.ElementKind.e4m3, td.ElementKind.f32, None),
    isa.Kind.I8: (td.ElementKind.s8, td.ElementKind.s32, None),
    isa.Kind.MXF8F6F4: (td.ElementKind.e4m3, None, td.ElementKind.ue8m0),
    isa.Kind.MXF4: (td.ElementKind.e2m1, None, td.ElementKind.ue8m0),
    isa.Kind.MXF4NVF4: (td.ElementKind.e2m1, None, td.ElementKind.ue4m3),
}


GRID = list(itertools.product(range(16, 272, 16), range(8, 264, 8)))


def test_shape_table_follows_the_isa() -> None:
    """kind x cta_group x .ws x .sp x M x N, every M in 16..256 step 16 and N in 8..256 step 8."""
    forms = [f for f in itertools.product(isa.Kind, (1, 2), (False, True), (False, True))
             if not (f[2] and (f[1] == 2 or f[0].block_scaled))]  # fmt: skip
    for kind, cg, ws, sp in forms:
        legal = expected_shapes(kind, cg, ws, sp)
        for m, n in GRID:
            ours = isa.shape_error(kind, cg, m, n, ws, sp) is None
            assert ours == ((m, n) in legal), f"kind::{kind.value} cta_group::{cg} ws={ws} sp={sp} M={m} N={n}"
    assert len(forms) == 36


def _mma_with_descriptor(kind: isa.Kind, cg: int, ws: bool, sp: bool, m: int, n: int) -> tc.MmaOp:
    ab, d, scale = _TYPES[kind]
    desc = td.InstrDescOp(td.MMAKind(kind.value), m, n, ab, ab, d, scale_type=scale, sparse=sp)
    return tc.MmaOp(
        td.MMAKind(kind.value), _value(i32), _value(i64), _value(i64), desc.result, _value(i1),
        cta_group=cg, ws=ws, sparse_metadata=_value(i32) if sp else None,
        scale_a=_value(i32) if kind.block_scaled else None, scale_b=_value(i32) if kind.block_scaled else None,
        scale_vec=tc.ScaleVecKind.x4 if kind is isa.Kind.MXF4NVF4 else None,
    )  # fmt: skip


@pytest.mark.parametrize("kind", list(isa.Kind), ids=lambda k: k.value)
def test_mma_verifier_checks_shapes_from_the_descriptor(kind: isa.Kind) -> None:
    """tcgen05.mma reads M and N from its tcgen05.instr_desc operand: the corners of each form's
    table and the first values past them."""
    for cg, ws, sp in itertools.product((1, 2), (False, True), (False, True)):
        if ws and (cg == 2 or kind.block_scaled):
            continue
        legal = expected_shapes(kind, cg, ws, sp)
        ms = sorted({m for m, _ in legal})
        ns = sorted({n for _, n in legal})
        probes = {(ms[0], ns[0]), (ms[-1], ns[-1]), (ms[0] - 16, ns[0]), (ms[-1], ns[-1] + 8),
                  (ms[0], ns[0] + 8), (ms[-1] + 16, ns[0])}  # fmt: skip
        for m, n in probes:
            if m <= 0:
                continue
            assert _accepts(_mma_with_descriptor(kind, cg, ws, sp, m, n)) == ((m, n) in legal), (cg, ws, sp, m, n)


# ---- K: Table 39's K column, written out independently of isa.py --------------------------------


def expected_ks(kind: isa.Kind, cta_group: int, sparse: bool, m: int) -> set[int]:
    """K of each block-scaled form: mxf8f6f4 32 (.sp 64); mxf4 / mxf4nvf4 64 (.sp 128), and
    K1 = 96 for the dense cta_group::2 256xNxK1 shape."""
    dense = {isa.Kind.MXF8F6F4: 32, isa.Kind.MXF4: 64, isa.Kind.MXF4NVF4: 64}[kind]
    if sparse:
        return {2 * dense}
    if kind is not isa.Kind.MXF8F6F4 and cta_group == 2 and m == 256:
        return {dense, 96}
    return {dense}


def _block_scaled_mma(kind: isa.Kind, cg: int, sp: bool, m: int, k96: bool, scale_vec=tc.ScaleVecKind.block32,
                      scale_id: int = 0) -> tc.MmaOp:  # type: ignore[no-untyped-def]
    ab, _, scale = _TYPES[kind]
    desc = td.InstrDescOp(td.MMAKind(kind.value), m, 64, ab, ab, None, scale_type=scale, sparse=sp, k96=k96,
                          scale_a_id=scale_id, scale_b_id=scale_id)
    return tc.MmaOp(
        td.MMAKind(kind.value), _value(i32), _value(i64), _value(i64), desc.result, _value(i1),
        cta_group=cg, sparse_metadata=_value(i32) if sp else None, scale_a=_value(i32), scale_b=_value(i32),
        scale_vec=scale_vec,
    )  # fmt: skip


def test_k_of_each_block_scaled_form_follows_the_isa() -> None:
    """K = 96 (the descriptor's K-dimension bit) is accepted exactly where Table 39 lists it; the
    other K is the kind's, and isa.mma_k says so."""
    checked = 0
    for kind in (k for k in isa.Kind if k.block_scaled):
        for cg, sp in itertools.product((1, 2), (False, True)):
            for m in sorted({m for m, _ in expected_shapes(kind, cg, False, sp)}):
                ks = expected_ks(kind, cg, sp, m)
                assert isa.mma_k(kind, sp) in ks and len(ks - {96}) == 1, (kind, cg, sp, m)
                if kind is not isa.Kind.MXF8F6F4:  # mxf8f6f4 has no K-dimension field
                    assert _accepts(_block_scaled_mma(kind, cg, sp, m, True)) == (96 in ks), (kind, cg, sp, m)
                assert _accepts(_block_scaled_mma(kind, cg, sp, m, False)), (kind, cg, sp, m)
                checked += 1
    assert checked == 15  # per kind: cta_group::1 M 128 (dense, .sp), ::2 M 128, 256 dense and 256 .sp


def test_k96_block_size_and_scale_ids() -> None:
    """K = 96 takes .block32 (3 scales per row, any start byte) or .block16 (mxf4nvf4: 6 per row,
    byte 0 or 2), not .scale_vec::NX (9.7.16.10.7.1 Table 54, 9.7.16.10.7.2.4/.5)."""
    nv, mx = isa.Kind.MXF4NVF4, isa.Kind.MXF4
    for sid in range(4):
        assert _accepts(_block_scaled_mma(nv, 2, False, 256, True, tc.ScaleVecKind.block32, sid))
        assert _accepts(_block_scaled_mma(nv, 2, False, 256, True, tc.ScaleVecKind.block16, sid)) == (sid in (0, 2))
    assert not _accepts(_block_scaled_mma(nv, 2, False, 256, True, tc.ScaleVecKind.x2))
    assert not _accepts(_block_scaled_mma(nv, 2, False, 256, True, tc.ScaleVecKind.x4))
    assert not _accepts(_block_scaled_mma(mx, 2, False, 256, True, tc.ScaleVecKind.x2))
    assert _accepts(_block_scaled_mma(mx, 2, False, 256, True, tc.ScaleVecKind.block32, 3))
    assert isa.scale_factors_per_row(nv, isa.ScaleVec.BLOCK16, k96=True) == 6
    assert isa.scale_factors_per_row(mx, isa.ScaleVec.BLOCK32, k96=True) == 3


def test_the_k_dimension_is_bit_31_of_the_fp4_descriptor() -> None:
    for kind in (isa.Kind.MXF4, isa.Kind.MXF4NVF4):
        d = isa.InstrDescriptor(kind, 256, 64, isa.DType.E2M1, isa.DType.E2M1, scale_type=isa.DType.UE8M0, k96=True)
        raw = d.encode()
        assert raw >> 31 == 1 and isa.decode_instr_descriptor(kind, raw) == d
        assert isa.decode_instr_descriptor(kind, raw & ~(1 << 31)).k96 is False
    raw = isa.InstrDescriptor(isa.Kind.MXF8F6F4, 256, 64, isa.DType.E4M3, isa.DType.E4M3,
                              scale_type=isa.DType.UE8M0).encode()  # fmt: skip
    with pytest.raises(ValueError, match="reserved"):
        isa.decode_instr_descriptor(isa.Kind.MXF8F6F4, raw | (1 << 31))


@needs_ptxas
def test_ptxas_does_not_check_the_instruction_descriptor() -> None:
    """Why M x N is checked against the ISA table and not ptxas: an immediate descriptor with
    M = 48 (not a legal M of any form) and reserved bits set assembles."""
    bad = isa.InstrDescriptor(isa.Kind.F16, 48, 8, isa.DType.F16, isa.DType.F16).encode() | (1 << 31)
    text = (".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n"
            "\t.reg .b64 %rd<3>;\n\t.reg .pred %p<2>;\n\tmov.u32 %r1, 0;\n\tmov.u64 %rd1, 0;\n"
            "\tsetp.ne.u32 %p1, %r1, 0;\n"
            f"\ttcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd1, {bad}, %p1;\n\tret;\n}}\n")  # fmt: skip
    assert run_ptxas(text, "sm_100a", PTXAS).ok


# ---- tcgen05.cp ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CpForm:
    shape: isa.CpShape
    multicast: isa.CpMulticast | None
    source: isa.CpSourceFormat | None
    cta_group: int

    def __str__(self) -> str:
        return isa.cp_mnemonic(self.shape, self.cta_group, self.multicast, self.source)


def cp_forms() -> list[CpForm]:
    return [
        CpForm(s, m, f, g)
        for s, m, f, g in itertools.product(isa.CpShape, (None, *isa.CpMulticast), (None, *isa.CpSourceFormat), (1, 2))
    ]


def build_cp(forms: Sequence[object]) -> tuple[str, dict[int, object]]:
    lines = [".version 8.6\n.target sm_100a\n.address_size 64\n\n"]
    at: dict[int, object] = {}
    for cg in (1, 2):
        mine = [f for f in forms if isinstance(f, CpForm) and f.cta_group == cg]
        if not mine:
            continue
        lines += [f".visible .entry forms{cg}()\n{{\n", "\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n",
                  "\tmov.u32 %r1, 0;\n\tmov.u64 %rd1, 0;\n"]  # fmt: skip
        for form in mine:
            lines.append(f"\t{form} [%r1], %rd1;\n")
            at["".join(lines).count("\n")] = form
        lines.append("\tret;\n}\n\n")
    return "".join(lines), at


def _cp_kinds(form: CpForm) -> tuple[cp.CpShapeKind, cp.CpMulticastKind | None, cp.CpSourceKind | None]:
    shape = cp.CpShapeKind("shape_" + form.shape.value)
    mc = cp.CpMulticastKind(form.multicast.value.replace("::", "_")) if form.multicast else None
    src = cp.CpSourceKind(form.source.value) if form.source else None
    return shape, mc, src


@needs_ptxas
def test_cp_forms_match_ptxas() -> None:
    forms = cp_forms()
    verdict = ptxas_verdicts(forms, build_cp)
    disagreements = []
    for form in forms:
        shape, mc, src = _cp_kinds(form)
        ours = _accepts(cp.CpOp(_value(i32), _value(i64), shape, mc, src, form.cta_group))
        upstream = _accepts(up.Tcgen05CpOp(_value(up.TMEM_POINTER), _value(i64), form.shape, form.cta_group,
                                           form.multicast, form.source))  # fmt: skip
        if not ours == upstream == verdict[form]:
            disagreements.append(f"{form}: tcgen05 {ours}, nvvm {upstream}, ptxas {verdict[form]}")
    assert not disagreements, "\n".join(disagreements)
    assert len(forms) == 120 and sum(verdict.values()) == 36  # (3 plain shapes + 64x128b x 2 + 32x128b) x 3 x 2


def test_cp_footprints() -> None:
    """Which TMEM lanes receive each source row (from the ISA's multicast descriptions)."""
    assert isa.cp_footprint(isa.CpShape.S128x256b, None).lanes[127] == (127,)
    assert isa.cp_footprint(isa.CpShape.S128x256b, None).columns == 8
    assert isa.cp_footprint(isa.CpShape.S4x256b, None).lane_set == {0, 1, 2, 3}
    w = isa.cp_footprint(isa.CpShape.S64x128b, isa.CpMulticast.WARPX2_01_23)
    assert w.lanes[0] == (0, 32) and w.lanes[33] == (65, 97) and w.columns == 4
    x4 = isa.cp_footprint(isa.CpShape.S32x128b, isa.CpMulticast.WARPX4)
    assert x4.lanes[5] == (5, 37, 69, 101) and len(x4.lane_set) == 128

