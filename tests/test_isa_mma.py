"""The tcgen05.mma ISA tables: descriptor bitfields, swizzle atoms, canonical layouts, accumulator layouts.

Expected values come from the ISA text and from what real compilers emit (TMEM_FACTS.md: CuTe DSL
4.8.1's descriptors), written here independently of isa.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tmem_dialect import isa

# ---- instruction descriptor ------------------------------------------------------------------


def test_instr_descriptor_matches_cute_dsl() -> None:
    """M = N = 128, f16 inputs, f32 D: CuTe DSL emits 0x08200010 (TMEM_FACTS.md)."""
    d = isa.InstrDescriptor(isa.Kind.F16, 128, 128, isa.DType.F16, isa.DType.F16, isa.DType.F32)
    assert d.encode() == 0x08200010
    assert d.errors() == []


def test_instr_descriptor_fields_by_hand() -> None:
    # N >> 3 at bits 17-22, M >> 4 at 24-28, D type at 4-5 (S32 = 2), A/B at 7-9 / 10-12,
    # transpose A/B at 15/16, sparse at 2, saturate at 3
    d = isa.InstrDescriptor(isa.Kind.I8, 64, 256, isa.DType.S8, isa.DType.U8, isa.DType.S32,
                            transpose_b=True, sparse=True, saturate=True)  # fmt: skip
    expect = (1 << 2) | (1 << 3) | (2 << 4) | (1 << 7) | (0 << 10) | (1 << 16) | (32 << 17) | (4 << 24)
    assert d.encode() == expect
    bs = isa.InstrDescriptor(isa.Kind.MXF8F6F4, 128, 64, isa.DType.E2M1, isa.DType.E5M2,
                             scale_type=isa.DType.UE8M0, a_scale_id=2, b_scale_id=1)  # fmt: skip
    assert bs.encode() == (1 << 4) | (5 << 7) | (1 << 10) | (8 << 17) | (1 << 23) | (8 << 24) | (2 << 29)


_KINDS = list(isa.Kind)


@given(
    kind=st.sampled_from(_KINDS),
    m=st.sampled_from([64, 128, 256]),
    n=st.integers(1, 32).map(lambda x: 8 * x),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    data=st.data(),
)
def test_instr_descriptor_round_trip(kind: isa.Kind, m: int, n: int, flags, data) -> None:  # type: ignore[no-untyped-def]
    types = list(isa.AB_TYPE_CODES[kind])
    a, b = data.draw(st.sampled_from(types)), data.draw(st.sampled_from(types))
    ta, tb, na, nb = flags
    kwargs = dict(transpose_a=ta, transpose_b=tb, negate_a=na, negate_b=nb)
    if kind.block_scaled:
        d = isa.InstrDescriptor(kind, m, n, a, b, scale_type=data.draw(st.sampled_from(sorted(isa.SCALE_TYPES[kind], key=str))),
                                a_scale_id=data.draw(st.integers(0, 3)), b_scale_id=data.draw(st.integers(0, 3)), **kwargs)  # fmt: skip
    else:
        d = isa.InstrDescriptor(kind, m, n, a, b, data.draw(st.sampled_from(sorted(isa.D_TYPES[kind], key=str))), **kwargs)
    back = isa.decode_instr_descriptor(kind, d.encode())
    assert back == d


def test_instr_descriptor_errors() -> None:
    assert "kind::tf32 has no A type f16" in " ".join(
        isa.InstrDescriptor(isa.Kind.TF32, 128, 128, isa.DType.F16, isa.DType.TF32).errors()
    )
    errs = isa.InstrDescriptor(isa.Kind.F16, 64, 8, isa.DType.F16, isa.DType.F16).errors(cta_group=2)
    assert any("M = 64 is not legal" in e for e in errs)
    assert isa.InstrDescriptor(isa.Kind.F16, 64, 8, isa.DType.F16, isa.DType.F16).errors(cta_group=None) == []
    with pytest.raises(ValueError, match="reserved"):
        isa.decode_instr_descriptor(isa.Kind.F16, 3 << 4)


# ---- shared-memory descriptor ----------------------------------------------------------------


def test_smem_descriptor_matches_cute_dsl() -> None:
    """K-major 128B-swizzle f16 operand: CuTe DSL emits 0x4000404000010000 | (start >> 4)."""
    start = 0x1_2340
    d = isa.SmemDescriptor(start, leading_byte_offset=16, stride_byte_offset=1024, swizzle=isa.Swizzle.B128)
    assert d.encode() == 0x4000404000010000 | (start >> 4)
    assert d.errors() == []
    # advancing by one K16 step of f16 (32 bytes) adds 2 to the descriptor
    assert isa.SmemDescriptor(start + 32, 16, 1024, swizzle=isa.Swizzle.B128).encode() - d.encode() == 2


@given(
    start=st.integers(0, (1 << 14) - 1).map(lambda x: 16 * x),
    lbo=st.integers(0, (1 << 14) - 1).map(lambda x: 16 * x),
    sbo=st.integers(0, (1 << 14) - 1).map(lambda x: 16 * x),
    base=st.integers(0, 7),
    mode=st.integers(0, 1),
    swizzle=st.sampled_from(list(isa.Swizzle)),
)
def test_smem_descriptor_round_trip(start: int, lbo: int, sbo: int, base: int, mode: int, swizzle: isa.Swizzle) -> None:
    d = isa.SmemDescriptor(start, lbo, sbo, base, mode, swizzle)
    assert isa.decode_smem_descriptor(d.encode()) == d
    assert d.errors() == []


def test_smem_descriptor_errors_and_invalid_swizzle() -> None:
    errs = isa.SmemDescriptor(8, 24, 1 << 18, base_offset=9).errors()
    assert [e.split()[0] for e in errs] == ["start", "leading", "stride", "base"]
    assert "outside the 256 KiB shared window" in isa.SmemDescriptor(1 << 18, 16, 16).errors()[0]
    with pytest.raises(ValueError, match="swizzle mode"):
        isa.decode_smem_descriptor(3 << 61)


# ---- swizzle atoms and canonical layouts -----------------------------------------------------


def test_swizzle_128b_chunk_permutation() -> None:
    """128B swizzle: in each 8-row atom (rows of 128 bytes, 1024-byte aligned), the 16-byte chunk c
    of row r lands at chunk c XOR r."""
    base = 4096
    for r in range(8):
        for c in range(8):
            addr = base + 128 * r + 16 * c + 5
            assert isa.swizzle_address(isa.Swizzle.B128, addr) == base + 128 * r + 16 * (c ^ r) + 5


def test_swizzle_64b_and_32b() -> None:
    """64B: chunk c (of 4) of the 64-byte row r XORs with (r >> 1) & 3 (the pattern repeats every
    512 bytes); 32B: chunk c (of 2) of the 32-byte row r XORs with (r >> 2) & 1."""
    for r in range(8):
        for c in range(4):
            assert isa.swizzle_address(isa.Swizzle.B64, 64 * r + 16 * c) == 64 * r + 16 * (c ^ ((r >> 1) & 3))
        for c in range(2):
            assert isa.swizzle_address(isa.Swizzle.B32, 32 * r + 16 * c) == 32 * r + 16 * (c ^ ((r >> 2) & 1))
    assert isa.swizzle_address(isa.Swizzle.NONE, 1234) == 1234
    with pytest.raises(ValueError, match="not modelled"):
        isa.swizzle_address(isa.Swizzle.B128_ATOM32, 0)


def test_k_major_128b_operand_addresses() -> None:
    """f16, K-major, 128B swizzle, SBO = 1024: element (mn, k) of a 16 x 64 tile."""
    d = isa.SmemDescriptor(8192, 16, 1024, swizzle=isa.Swizzle.B128)
    mn, k = np.meshgrid(np.arange(16), np.arange(64), indexing="ij")
    got = isa.operand_addresses(d, isa.Major.K, 16, mn, k)
    byte = 2 * k
    expect = 8192 + (mn // 8) * 1024 + (mn % 8) * 128 + (((byte // 16) ^ (mn % 8)) * 16) + byte % 16
    assert np.array_equal(got, expect)
    assert len(np.unique(got)) == got.size


def test_no_swizzle_core_matrices() -> None:
    """Unswizzled K-major: 8 x 16-byte core matrices, LBO between K neighbours, SBO between M ones."""
    d = isa.SmemDescriptor(0, leading_byte_offset=128, stride_byte_offset=256)
    assert int(isa.operand_offset(d, isa.Major.K, 16, np.array(3), np.array(9))) == 3 * 16 + 2 * 1 + 128
    assert int(isa.operand_offset(d, isa.Major.K, 16, np.array(9), np.array(0))) == 16 + 256
    # MN-major, 128B swizzle: 64 f16 contiguous along MN per row, K rows 128 bytes apart
    s = isa.SmemDescriptor(0, leading_byte_offset=4096, stride_byte_offset=1024, swizzle=isa.Swizzle.B128)
    assert int(isa.operand_offset(s, isa.Major.MN, 16, np.array(70), np.array(9))) == 12 + 4096 + 128 + 1024


# ---- accumulator layouts, cp, pipelining -----------------------------------------------------


def test_accumulator_lanes() -> None:
    assert [isa.accumulator_lane(128, 1, r) for r in (0, 77, 127)] == [(0, 0), (0, 77), (0, 127)]
    assert [isa.accumulator_lane(64, 1, r) for r in (0, 15, 16, 63)] == [(0, 0), (0, 15), (0, 32), (0, 111)]
    assert [isa.accumulator_lane(256, 2, r) for r in (0, 127, 128, 255)] == [(0, 0), (0, 127), (1, 0), (1, 127)]
    with pytest.raises(ValueError, match="not modelled"):
        isa.accumulator_lane(128, 2, 0)


def test_pipelined_pairs() -> None:
    assert isa.pipelined("mma", "mma").condition is isa.PipelineCondition.SAME_CTA_GROUP_ACCUMULATOR_SHAPE
    assert isa.pipelined("cp", "mma") is not None and isa.pipelined("mma", "cp") is None
    assert isa.pipelined("shift", "cp4x256b") is not None


def test_form_errors() -> None:
    assert isa.form_error(isa.Kind.F16, 1) is None
    assert "only with kind::f16 and kind::tf32" in isa.form_error(isa.Kind.I8, 1, scale_input_d=True)  # type: ignore[operator]
    assert "cta_group::1" in isa.form_error(isa.Kind.TF32, 2, ws=True)  # type: ignore[operator]
    assert isa.min_ptx_version(isa.Kind.MXF4, None) == (8, 8)
    assert isa.min_ptx_version(isa.Kind.MXF4, isa.ScaleVec.X2) == (8, 6)
    assert isa.scale_block_size(isa.Kind.MXF4NVF4, isa.ScaleVec.X4) == 16


def test_scale_factor_slots() -> None:
    """K / block: mxf8f6f4 (K = 32, block 32) has 1 scale per row, mxf4 (K = 64) 2, mxf4nvf4 with
    16-element blocks 4; the data ID must start a free run of slots in the 32-bit cell."""
    assert isa.scale_factors_per_row(isa.Kind.MXF8F6F4, isa.ScaleVec.X1) == 1
    assert isa.scale_factors_per_row(isa.Kind.MXF4, isa.ScaleVec.X2) == 2
    assert isa.scale_factors_per_row(isa.Kind.MXF4NVF4, isa.ScaleVec.X4) == 4
    assert isa.scale_id_error(isa.Kind.MXF8F6F4, None, 3) is None
    assert isa.scale_id_error(isa.Kind.MXF4, None, 2) is None
    assert "one of 0, 2" in isa.scale_id_error(isa.Kind.MXF4, None, 1)  # type: ignore[operator]
    assert "one of 0" in isa.scale_id_error(isa.Kind.MXF4NVF4, isa.ScaleVec.BLOCK16, 2)  # type: ignore[operator]
