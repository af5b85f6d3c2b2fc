"""Block-scaled tcgen05.mma (kind::mxf8f6f4, scale factors in TMEM through tcgen05.cp) and tcgen05.shift in the interpreter, against numpy.

The references decode e4m3 and ue8m0 and lay out the scale factors here, from the PTX ISA's
definitions (OCP MX v1.0 formats; 9.7.16.10.7 "Block Scaling"; 9.7.16.9.3 "tcgen05.shift"),
not through tmem_dialect.isa or interpreter.formats.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tmem_dialect import isa
from tmem_dialect.interpreter import run_kernel

EXAMPLES = Path(__file__).parent.parent / "examples"
MXF8 = (EXAMPLES / "gemm_mxf8f6f4_tile.mlir").read_text()
SHIFT = (EXAMPLES / "tmem_shift.mlir").read_text()
M, N, K, BLOCK = 128, 256, 128, 32


# ---- independent references ------------------------------------------------------------------


def e4m3(codes: np.ndarray) -> np.ndarray:
    """OCP e4m3: sign, 4 exponent bits (bias 7), 3 mantissa bits; exponent 0 is subnormal
    (m/8 * 2^-6); S.1111.111 is NaN (the operands here avoid it)."""
    c = codes.astype(np.int64)
    sign = np.where(c & 0x80, -1.0, 1.0)
    e, m = (c >> 3) & 0xF, c & 0x7
    return sign * np.where(e == 0, m / 8 * 2.0**-6, (1 + m / 8) * 2.0 ** (e - 7))


def ue8m0(codes: np.ndarray) -> np.ndarray:
    """OCP E8M0: 2^(code - 127) (0xFF, NaN, avoided)."""
    return 2.0 ** (codes.astype(np.float64) - 127)


def packed_scales(sf: np.ndarray) -> np.ndarray:
    """A (rows, 4) array of per-k-block scale codes as the example takes them: for each 128 rows a
    32 x 16-byte tile whose row r0 holds, in byte 4 * c + kb, the scale of row 32 * c + r0 for
    k-block kb (so that tcgen05.cp.32x128b.warpx4 puts row r in lane r % 32 of column r // 32,
    k-block kb in byte kb). As int32 words, four codes each, little-endian."""
    rows = sf.shape[0]
    tiles = sf.reshape(rows // 128, 4, 32, 4).transpose(0, 2, 1, 3)  # [tile][r0][c][kb]
    return np.ascontiguousarray(tiles, dtype=np.uint8).reshape(-1).view(np.int32)


def operands(seed: int):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, (M, K), dtype=np.uint8)
    b = rng.integers(0, 256, (N, K), dtype=np.uint8)
    a[(a & 0x7F) == 0x7F] = 0x38  # no NaN codes: 0x7F/0xFF become 1.0
    b[(b & 0x7F) == 0x7F] = 0x38
    sfa = rng.integers(118, 137, (M, K // BLOCK), dtype=np.uint8)  # 2^-9 .. 2^9
    sfb = rng.integers(118, 137, (N, K // BLOCK), dtype=np.uint8)
    return a, b, sfa, sfb


def scaled(codes: np.ndarray, sf: np.ndarray) -> np.ndarray:
    return e4m3(codes) * np.repeat(ue8m0(sf), BLOCK, axis=1)


def run_tile(text: str, a, b, sfa, sfb, **options):
    args = [a.reshape(-1).view(np.int32), b.reshape(-1).view(np.int32), packed_scales(sfa), packed_scales(sfb),
            np.zeros(M * N, np.float32)]
    return run_kernel(text, kernel="gemm_mxf8f6f4_tile", args=args, filename="gemm_mxf8f6f4_tile.mlir", **options)


# ---- the mxf8f6f4 tile -----------------------------------------------------------------------


@pytest.mark.parametrize("schedule,seed", [("round-robin", 0), ("reverse", 1), ("random:5", 2)])
def test_mxf8f6f4_tile_equals_numpy(schedule, seed):
    a, b, sfa, sfb = operands(seed)
    res = run_tile(MXF8, a, b, sfa, sfb, schedule=schedule)
    assert res.diagnostics == [], res.render()
    c = res.args[4].reshape(M, N)
    sa, sb = scaled(a, sfa), scaled(b, sfb)
    ref = sa @ sb.T
    # Tolerance: every product of two e4m3 values times two powers of two is exact in float64,
    # and so are the sums of one k-step (32 products of <= 8-bit significands over a small
    # exponent range); the tensor core rounds D to f32 once per mma (docs/interpreter.md), so
    # after 4 k-steps each element is within 4 f32 roundings of sum |a*b|.
    bound = 4 * 2.0**-24 * (np.abs(sa) @ np.abs(sb).T)
    assert (np.abs(c - ref) <= bound).all(), np.abs(c - ref).max()
    # and exactly that model: float64 per k-step, f32 after each
    d = np.zeros((M, N), np.float32)
    for k in range(K // BLOCK):
        s = slice(BLOCK * k, BLOCK * (k + 1))
        d = (sa[:, s] @ sb[:, s].T + d).astype(np.float32)
    np.testing.assert_array_equal(c, d)


def test_the_scale_factor_id_selects_the_byte():
    """k-step 1 with scale-factor IDs 0: it scales k-block 1 with the scales of k-block 0 (the
    byte its ID names), not with its own."""
    a, b, sfa, sfb = operands(3)
    text = MXF8.replace("scale ue8m0 scale_a_id 1 scale_b_id 1", "scale ue8m0", 1)
    assert text != MXF8
    res = run_tile(text, a, b, sfa, sfb)
    assert res.diagnostics == [], res.render()
    c = res.args[4].reshape(M, N)
    used_a, used_b = sfa.copy(), sfb.copy()
    used_a[:, 1], used_b[:, 1] = sfa[:, 0], sfb[:, 0]
    sa, sb = scaled(a, used_a), scaled(b, used_b)
    d = np.zeros((M, N), np.float32)
    for k in range(K // BLOCK):
        s = slice(BLOCK * k, BLOCK * (k + 1))
        d = (sa[:, s] @ sb[:, s].T + d).astype(np.float32)
    np.testing.assert_array_equal(c, d)
    assert not np.array_equal(c, (scaled(a, sfa) @ scaled(b, sfb).T).astype(np.float32))


def test_every_lane_partition_reads_its_own_copy_of_scale_b():
    """Without warpx4's duplication only lane partition 0 would hold scale_B. Copying scale_B's
    first tile with 64x128b.warpx2::01_23 instead (source rows 0-31 to partitions 0 and 1, rows
    32-63, past the tile, to partitions 2 and 3) changes exactly the rows of D in lanes 64-127."""
    a, b, sfa, sfb = operands(4)
    good = run_tile(MXF8, a, b, sfa, sfb)
    text = MXF8.replace("tcgen05.cp %t_sfb, %desc_sfb shape_32x128b multicast warpx4",
                        "tcgen05.cp %t_sfb, %desc_sfb shape_64x128b multicast warpx2_01_23", 1)
    assert text != MXF8
    bad = run_tile(text, a, b, sfa, sfb)
    assert bad.errors == [], bad.render()
    c_good, c_bad = good.args[4].reshape(M, N), bad.args[4].reshape(M, N)
    np.testing.assert_array_equal(c_bad[:64], c_good[:64])
    assert (c_bad[64:, :128] != c_good[64:, :128]).any()
    np.testing.assert_array_equal(c_bad[:, 128:], c_good[:, 128:])  # columns 128-255: the second tile


def test_reading_scale_factors_another_warp_copies_before_the_commit():
    """The cp of scale_A issued by thread 32 (warp 1) and the mma by warp 0: cp -> mma is
    pipelined only within one thread (9.7.16.6), so the mma reads TMEM the cp writes unordered:
    reported whichever of the two the schedule runs first."""
    a, b, sfa, sfb = operands(5)
    cp = "      tcgen05.cp %t_sfa, %desc_sfa shape_32x128b multicast warpx4\n"
    text = MXF8.replace(cp, "", 1)
    text = text.replace("  scf.if %is_warp0 {\n    %elected = tcgen05.elect_sync",
                        "  %is_thread32 = arith.cmpi eq, %tid, %c32_i32 : i32\n"
                        "  scf.if %is_thread32 {\n"
                        "    %desc_sfa_w1 = tcgen05.smem_desc %sfa_base lbo 16 sbo 128 none\n"
                        "    tcgen05.cp %t_sfa, %desc_sfa_w1 shape_32x128b multicast warpx4\n"
                        "  }\n"
                        "  scf.if %is_warp0 {\n    %elected = tcgen05.elect_sync", 1)
    assert text.count("tcgen05.cp %t_sfa") == 1
    res = run_tile(text, a, b, sfa, sfb, schedule="reverse")
    assert {k.value for k in res.kinds("error")} & {"async-pending", "handoff"}, res.render()
    text = res.render()
    assert ("tcgen05.cp of warp 1 overwrites" in text and "which the tcgen05.mma of warp 0 may still be reading" in text
            or "tcgen05.mma of warp 0 reads scale factors in" in text), text


def test_tmem_run_executes_the_mxf8f6f4_example(capsys):
    """tmem-run: A all 1.0 (0x38), B all 0.5 (0x30), every scale 2^0 (127): C = 128 * 0.5 = 64."""
    from tmem_dialect.tools.opt import run_tool
    from tmem_dialect.tools.run import TmemRun

    ones, halves, unit = 0x38383838, 0x30303030, 0x7F7F7F7F
    rc = run_tool(lambda a: TmemRun(a), "tmem-run",
                  [str(EXAMPLES / "gemm_mxf8f6f4_tile.mlir"), "--arg", f"i32:4096={ones}",
                   "--arg", f"i32:8192={halves}", "--arg", f"i32:128={unit}", "--arg", f"i32:256={unit}",
                   "--arg", "f32:32768", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    c = np.array(json.loads(out)["args"][4], dtype=np.float32)
    assert c.shape == (M * N,) and (c == 64.0).all()


# ---- mxf4nvf4 (e2m1, ue4m3 at scale_vec::4X) and mxf4 (e2m1, ue8m0 at 2X) -------------------------

NVFP4 = (EXAMPLES / "gemm_mxf4nvf4_tile.mlir").read_text()
K4 = 256  # 4 k-steps of 64 e2m1 elements, 32 bytes each


def e2m1(codes: np.ndarray) -> np.ndarray:
    """OCP e2m1: sign, 2 exponent bits (bias 1), 1 mantissa bit; exponent 0 is m * 0.5."""
    c = codes.astype(np.int64)
    sign = np.where(c & 0x8, -1.0, 1.0)
    e, m = (c >> 1) & 0x3, c & 0x1
    return sign * np.where(e == 0, m * 0.5, (1 + m / 2) * 2.0 ** (e - 1))


def ue4m3(codes: np.ndarray) -> np.ndarray:
    """Unsigned e4m3 (the NVFP4 scale): 4 exponent bits (bias 7), 3 mantissa bits."""
    c = codes.astype(np.int64)
    e, m = (c >> 3) & 0xF, c & 0x7
    return np.where(e == 0, m / 8 * 2.0**-6, (1 + m / 8) * 2.0 ** (e - 7))


def pack_e2m1(codes: np.ndarray) -> np.ndarray:
    """Two e2m1 codes per byte along K, the even element in the low nibble, as int32 words."""
    packed = (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
    return np.ascontiguousarray(packed).reshape(-1).view(np.int32)


def packed_scales_per_kstep(sf: np.ndarray, per_mma: int) -> np.ndarray:
    """(rows, 4 * per_mma) scale codes as the NVFP4 example takes them: per k-step, per 128 rows, a
    32 x 16-byte tile whose row r0 holds, in bytes 4 * c .. 4 * c + per_mma - 1, the k-step's
    scales of row 32 * c + r0 (the rest of each word zero; scale-factor ID 0)."""
    rows = sf.shape[0]
    words = np.zeros((rows, 4, 4), np.uint8)  # [row][k-step][byte]
    words[:, :, :per_mma] = sf.reshape(rows, 4, per_mma)
    tiles = words.reshape(rows // 128, 4, 32, 4, 4).transpose(3, 0, 2, 1, 4)  # [k][tile][r0][c][byte]
    return np.ascontiguousarray(tiles).reshape(-1).view(np.int32)


def as_mxf4(text: str) -> str:
    """The NVFP4 example as kind::mxf4: ue8m0 scales per 32 elements (.scale_vec::2X, two per
    mma in the low half word, ID 0)."""
    out = text.replace("mxf4nvf4 m 128 n 256 a e2m1 b e2m1 scale ue4m3", "mxf4 m 128 n 256 a e2m1 b e2m1 scale ue8m0")
    out = out.replace("tcgen05.mma mxf4nvf4", "tcgen05.mma mxf4").replace("scale_vec x4", "scale_vec x2")
    assert "tcgen05.mma mxf4 " in out and "instr_desc mxf4 " in out and "scale_vec x2" in out
    return out


@pytest.mark.parametrize("kind", ["mxf4nvf4", "mxf4"])
@pytest.mark.parametrize("schedule", ["round-robin", "random:9"])
def test_fp4_tile_equals_numpy(kind, schedule):
    rng = np.random.default_rng(11)
    a = rng.integers(0, 16, (M, K4))
    b = rng.integers(0, 16, (N, K4))
    if kind == "mxf4nvf4":
        text, block, decode = NVFP4, 16, ue4m3
        sfa, sfb = rng.integers(0x28, 0x48, (M, K4 // 16)), rng.integers(0x28, 0x48, (N, K4 // 16))
    else:
        text, block, decode = as_mxf4(NVFP4), 32, ue8m0
        sfa, sfb = rng.integers(120, 135, (M, K4 // 32)), rng.integers(120, 135, (N, K4 // 32))
    per_mma = 64 // block
    args = [pack_e2m1(a), pack_e2m1(b), packed_scales_per_kstep(sfa, per_mma), packed_scales_per_kstep(sfb, per_mma),
            np.zeros(M * N, np.float32)]
    res = run_kernel(text, kernel="gemm_mxf4nvf4_tile", args=args, schedule=schedule)
    assert res.diagnostics == [], res.render()
    c = res.args[4].reshape(M, N)
    sa = e2m1(a) * np.repeat(decode(sfa), block, axis=1)
    sb = e2m1(b) * np.repeat(decode(sfb), block, axis=1)
    # Exactly the documented model: float64 per k-step of 64 (exact here: e2m1 products times
    # these scales are short binary fractions), f32 after each mma; within 4 f32 roundings of
    # sum |a*b| of the exact result.
    d = np.zeros((M, N), np.float32)
    for k in range(4):
        s = slice(64 * k, 64 * (k + 1))
        d = (sa[:, s] @ sb[:, s].T + d).astype(np.float32)
    np.testing.assert_array_equal(c, d)
    assert (np.abs(c - sa @ sb.T) <= 4 * 2.0**-24 * (np.abs(sa) @ np.abs(sb).T)).all()


def test_mxf4_variant_assembles():
    """The kind::mxf4 (.scale_vec::2X) twin of the NVFP4 example lowers to PTX ptxas accepts."""
    from tmem_dialect.dialects import make_context
    from tmem_dialect.ir import parse_module
    from tmem_dialect.lowering.ptx_emitter import emit_ptx
    from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas
    from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass
    from tmem_dialect.passes.assign_lanes import AssignLanesPass

    ptxas = find_ptxas()
    if ptxas is None:
        pytest.skip("ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
    from tmem_dialect.passes.plan_columns import TmemPlanColumnsPass

    ctx = make_context()
    module = parse_module(ctx, as_mxf4(NVFP4), "gemm_mxf4_tile.mlir")
    TmemPlanColumnsPass().apply(ctx, module)
    AssignLanesPass().apply(ctx, module)
    ConvertTcgen05ToNVVMPass().apply(ctx, module)
    ptx = emit_ptx(module).text
    assert "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X" in ptx
    result = run_ptxas(ptx, "sm_100a", ptxas)
    assert result.ok, result.output


# ---- the scale-factor layout, value by value ---------------------------------------------------


@pytest.mark.parametrize("per_row,scale_id", [(1, 0), (1, 3), (2, 0), (2, 2), (4, 0)])
@pytest.mark.parametrize("rows", [128, 256, 48])
def test_scale_factor_cells_match_the_isa_figures(rows, per_row, scale_id):
    """9.7.16.10.7.2/.3: row r in lane r % 32 of column r // 32 of the reading partition, scale
    factor j in byte ID + j of the word."""
    for partition in (0, 3):
        lane, col, byte = isa.scale_factor_cells(rows, per_row, scale_id, partition)
        for r in range(rows):
            for j in range(per_row):
                assert (lane[r, j], col[r, j], byte[r, j]) == (32 * partition + r % 32, r // 32, scale_id + j)
    assert isa.scale_factor_columns(rows) == -(-rows // 32)
    with pytest.raises(ValueError):
        isa.scale_factor_cells(rows, per_row, 4 - per_row + 1, 0)


@settings(max_examples=40, deadline=None)
@given(rows=st.sampled_from([32, 64, 128, 256]), per_row=st.sampled_from([1, 2, 4]), seed=st.integers(0, 2**16))
def test_a_warpx4_copy_of_the_packed_tile_is_what_every_partition_reads(rows, per_row, seed):
    """The two isa tables agree: tcgen05.cp.32x128b.warpx4 (isa.cp_footprint) of the packed
    32 x 16-byte tiles puts scale j of row r where isa.scale_factor_cells says every lane
    partition reads it (tile t at column 4t)."""
    rng = np.random.default_rng(seed)
    scale_id = int(rng.choice(range(0, 4, per_row)))
    sf = rng.integers(0, 256, (rows, per_row))
    tmem = np.zeros((128, 16, 4), np.int64)  # [lane][column][byte]
    fp = isa.cp_footprint(isa.CpShape.S32x128b, isa.CpMulticast.WARPX4)
    for tile in range(-(-rows // 128)):
        src = np.zeros((32, 16), np.int64)  # row r0, byte 4c + id + j: the scale of row 128t + 32c + r0
        for r in range(128 * tile, min(rows, 128 * tile + 128)):
            c, r0 = (r - 128 * tile) // 32, r % 32
            src[r0, 4 * c + scale_id: 4 * c + scale_id + per_row] = sf[r]
        for r0, lanes in enumerate(fp.lanes):
            for lane in lanes:
                tmem[lane, 4 * tile: 4 * tile + fp.columns] = src[r0].reshape(fp.columns, 4)
    for partition in range(4):
        lane, col, byte = isa.scale_factor_cells(rows, per_row, scale_id, partition)
        np.testing.assert_array_equal(tmem[lane, col, byte], sf)


# ---- tcgen05.shift ---------------------------------------------------------------------------


def shifted_reference() -> np.ndarray:
    """What the example's TMEM holds after its two shifts, from 9.7.16.9.3: in the 32 lanes from
    taddr's lane, rows 0-30 of the 8 columns from taddr's column move one row down."""
    before = np.arange(128)[:, None] * 16 + np.arange(16)[None, :]
    after = before.copy()
    after[1:32, 0:8] = before[0:31, 0:8]  # lanes 0-31, columns 0-7
    after[65:96, 8:16] = before[64:95, 8:16]  # lanes 64-95, columns 8-15
    return after


@pytest.mark.parametrize("schedule", ["round-robin", "reverse", "random:7"])
def test_shift_moves_rows_down_value_by_value(schedule):
    res = run_kernel(SHIFT, kernel="tmem_shift", args=[np.zeros(2048, np.int32)], schedule=schedule)
    assert res.diagnostics == [], res.render()
    got = res.args[0].reshape(128, 16)
    want = shifted_reference()
    for lane in range(128):
        for col in range(16):
            assert got[lane, col] == want[lane, col], (lane, col, got[lane, col], want[lane, col])
    assert (got[0] == np.arange(16)).all() and (got[64] == 64 * 16 + np.arange(16)).all()  # row 0 keeps its value


def test_shift_read_before_the_commits_phase_is_reported():
    text = SHIFT.replace("  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n", "", 1)
    res = run_kernel(text, kernel="tmem_shift", args=[np.zeros(2048, np.int32)])
    assert {k.value for k in res.kinds("error")} & {"async-pending", "handoff"}, res.render()


def test_shift_lane_must_be_aligned_to_32():
    """The second shift at lane 16: tmem-plan-columns refuses to plan it (the lane alignment the
    ISA states, 9.7.16.9.3), and the allocated kernel, run as is, is an error in the interpreter."""
    from example_sources import planned

    lane16 = ("%lane64_col8 = arith.constant 4194312 : i32", "%lane64_col8 = arith.constant 1048584 : i32")
    res = run_kernel(SHIFT.replace(*lane16), kernel="tmem_shift", args=[np.zeros(2048, np.int32)])
    assert "this use needs a TMEM lane aligned to 32, but it takes lane 16 of the buffer" in res.render(), res.render()
    text = planned(SHIFT).replace(*lane16)
    assert lane16[1] in text
    res = run_kernel(text, kernel="tmem_shift", args=[np.zeros(2048, np.int32)])
    assert "lane-quarter" in {k.value for k in res.kinds("error")}, res.render()
    assert "must be aligned to 32, got lane 16" in res.render()
