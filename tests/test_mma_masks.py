"""tcgen05.mma's disable-output-lane, the .ws zero-column mask and the .ws B collector buffers in the interpreter, against numpy.

Each expected D is written here from the PTX ISA's words (9.7.16.10.9 "tcgen05.mma" and
".ws", 9.7.16.4.3 "Zero-Column Mask Descriptor"), not from isa.mma_masks: a set bit b of mask
element w keeps TMEM lane 32w + b as it was; a zero-column mask is runs of Skip Span + 1 zeroed
columns and Use Span + 1 used ones; ::use reads the B its buffer's ::fill read.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tmem_dialect.interpreter import run_kernel

DATA = Path(__file__).parent / "data"
HAND = (DATA / "gemm_f16_tile_hand.mlir").read_text()
PAIR = (Path(__file__).parent.parent / "examples" / "gemm_pair_tile.mlir").read_text()

MMA = "tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %accumulate : i64"
COMMIT = "      tcgen05.commit %bar"


def _replace(old: str, new: str, text: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _operands(rows: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((rows, 64)).astype(np.float16), rng.standard_normal((256, 64)).astype(np.float16)


def _run(text: str, a_rows: int = 128, c_size: int = 32768, **options):
    a, b = _operands(a_rows)
    res = run_kernel(text, args=[a.reshape(-1), b.reshape(-1), np.zeros(c_size, np.float32)], **options)
    return a.astype(np.float64), b.astype(np.float64), res


def _four_k_steps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The example's D: 4 k-steps of 16, float64 sums rounded to f32 after each instruction."""
    d = np.zeros((a.shape[0], b.shape[0]), np.float32)
    for k in range(4):
        s = slice(16 * k, 16 * k + 16)
        d = (a[:, s] @ b[:, s].T + d).astype(np.float32)
    return d


def _kinds(res) -> set[str]:
    return {k.value for k in res.kinds("error")}


# ---- disable-output-lane ------------------------------------------------------------------

# words as i32 (two's complement): lanes 0-15; none; 64 and 95; 96-127 but 100
WORDS_1 = [0x0000FFFF, 0, 0x80000001, 0xFFFFFFFF ^ (1 << 4)]


def _i32(words) -> str:
    return ", ".join(str(w - (1 << 32) if w >= 1 << 31 else w) for w in words)


def _masked_fifth_mma(text: str, words, cta_group: int) -> str:
    """After the 4 k-steps, one more accumulating mma of k-step 0 with the mask."""
    suffix = " cta_group(2)" if cta_group == 2 else ""
    fifth = (
        "      %desc_a0 = tcgen05.smem_desc %a_base lbo 16 sbo 1024 swizzle_128b\n"
        "      %desc_b0 = tcgen05.smem_desc %b_base lbo 16 sbo 1024 swizzle_128b\n"
        f"      %lanes = arith.constant dense<[{_i32(words)}]> : vector<{len(words)}xi32>\n"
        "      %true = arith.constant true\n"
        f"      tcgen05.mma f16 %d, %desc_a0, %desc_b0, %idesc, %true mask %lanes : vector<{len(words)}xi32>{suffix} : i64\n"
    )
    return _replace(COMMIT, fifth + COMMIT, text)


def _disabled(words, lane: int) -> bool:
    return bool((words[lane // 32] >> (lane % 32)) & 1)


@pytest.mark.parametrize("schedule", ["round-robin", "reverse"])
def test_disable_output_lane_keeps_the_masked_lanes_of_d(schedule):
    a, b, res = _run(_masked_fifth_mma(HAND, WORDS_1, 1), schedule=schedule)
    assert res.diagnostics == [], res.render()
    d4 = _four_k_steps(a, b)
    d5 = (a[:, :16] @ b[:, :16].T + d4).astype(np.float32)
    want = np.array([d4[r] if _disabled(WORDS_1, r) else d5[r] for r in range(128)])  # M = 128: row r in lane r
    np.testing.assert_array_equal(res.args[2].reshape(128, 256), want)
    assert not np.array_equal(d4, d5)  # the masked mma changes every row it writes


def test_a_mask_of_zeros_writes_every_lane():
    a, b, res = _run(_masked_fifth_mma(HAND, [0, 0, 0, 0], 1))
    assert res.diagnostics == [], res.render()
    d4 = _four_k_steps(a, b)
    np.testing.assert_array_equal(res.args[2].reshape(128, 256), (a[:, :16] @ b[:, :16].T + d4).astype(np.float32))


def test_disable_output_lane_of_a_cta_pair_masks_both_ctas_lanes():
    """cta_group::2: 8 words, 0-3 the even CTA's lanes (rows 0-127 of M = 256), 4-7 the odd
    CTA's (rows 128-255): our reading, docs/interpreter.md."""
    words = WORDS_1 + [0xF0F0F0F0, 0, 0, 1]
    a, b, res = _run(_masked_fifth_mma(PAIR, words, 2), a_rows=256, c_size=65536)
    assert [d for d in res.diagnostics if d.severity.name != "NOTE"] == [], res.render()
    d4 = _four_k_steps(a, b)
    d5 = (a[:, :16] @ b[:, :16].T + d4).astype(np.float32)
    want = np.array([d4[r] if _disabled(words, r) else d5[r] for r in range(256)])  # row 128c + l: CTA c, lane l
    np.testing.assert_array_equal(res.args[2].reshape(256, 256), want)


# ---- the .ws zero-column mask -------------------------------------------------------------


def _zcm(*, start=(0, 0, 0, 0), first=(0, 0, 0, 0), non_zero=1, skip=0, use=0, shift=0) -> int:
    """Table 45, field by field."""
    v = sum(s << (8 * i) for i, s in enumerate(start)) | sum(f << (32 + i) for i, f in enumerate(first))
    return v | non_zero << 39 | skip << 40 | use << 48 | shift << 56


def _ws_kernel(zcm: int, n: int = 256) -> str:
    text = _replace(MMA, "tcgen05.mma f16 ws %d, %desc_a, %desc_b, %idesc, %accumulate zero_columns %zcm : i64", HAND)
    text = _replace("  %idesc = tcgen05.instr_desc f16 m 128 n 256",
                    f"  %zcm = arith.constant {zcm - (1 << 64) if zcm >= 1 << 63 else zcm} : i64\n"
                    f"  %idesc = tcgen05.instr_desc f16 m 128 n {n}", text)
    return text


def test_zero_column_mask_zeroes_its_columns_of_b():
    """First Span 1, Start Count 2, Skip Span 2, Use Span 4: the pattern 11100000 repeated, its
    first 2 bits dropped, i.e. column j reads zeros when (j + 2) % 8 < 3."""
    a, b, res = _run(_ws_kernel(_zcm(start=(2, 0, 0, 0), first=(1, 0, 0, 0), skip=2, use=4)))
    assert res.diagnostics == [], res.render()
    zero = np.array([(j + 2) % 8 < 3 for j in range(256)])
    np.testing.assert_array_equal(res.args[2].reshape(128, 256), _four_k_steps(a, np.where(zero[:, None], 0.0, b)))
    assert zero.sum() == 32 * 2 + 32  # columns 0, 5, 6, 7, 13, 14, 15, ...: 96 of 256


def test_the_non_zero_mask_bit_off_zeroes_nothing():
    a, b, res = _run(_ws_kernel(_zcm(non_zero=0, skip=2, use=3)))
    assert res.diagnostics == [], res.render()
    np.testing.assert_array_equal(res.args[2].reshape(128, 256), _four_k_steps(a, b))


def test_the_column_shift_reads_b_from_column_shift_on():
    """N = 128, shift 8: D's column j is the product with B's column j + 8 (9.7.16.4.3 Example 4:
    "B Matrix with columns from 2 to 129 will be used" for a shift of 2)."""
    text = _ws_kernel(_zcm(non_zero=0, shift=8), n=128)
    a, b, res = _run(text)
    assert res.diagnostics == [], res.render()
    np.testing.assert_array_equal(res.args[2].reshape(128, 256)[:, :128], _four_k_steps(a, b[8:136]))


def test_a_column_shift_past_its_maximum_is_a_bad_descriptor():
    _, _, res = _run(_ws_kernel(_zcm(non_zero=0, shift=33), n=128))
    assert "bad-descriptor" in _kinds(res), res.render()
    assert "column shift is at most 32 for M = 128, got 33" in res.render()


# ---- the .ws B collector buffers ----------------------------------------------------------

ZERO_B = """  %zero = arith.constant dense<0.0> : vector<8xf16>
  scf.for %j = %c0 to %c8 step %c1 {
    %z_off = arith.muli %j, %c8 : index
    scf.for %half = %c0 to %c256 step %c128 {
      %z_r = arith.addi %row, %half : index
      %z_row = arith.muli %z_r, %c64 : index
      %z_dst = arith.addi %z_row, %z_off : index
      %z_dst64 = arith.index_cast %z_dst : index to i64
      %pz = llvm.getelementptr %sb[%z_dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
      llvm.store %zero, %pz {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
    }
  }
"""


def _ws_mma(buffer: int, usage: str, accumulate: str) -> str:
    return (f"      nvvm.tcgen05.mma.ws %dp, %desc_a, %desc_b, %idesc, {accumulate} kind = f16 "
            f"collector_b_buffer = b{buffer} collector_b = {usage} : (!llvm.ptr<6>, i64, i64, i32, i1)\n")


def _collector_kernel(first: tuple[int, str], second: tuple[int, str], between: str = "") -> str:
    """Two .ws mmas of k-step 0 (K = 16) into D, the first overwriting, the second accumulating;
    between them the first completes (commit, wait), every thread zeroes B in shared memory, a
    proxy fence and a barrier make that visible to the second. `between`: further mmas after the
    first (same commit)."""
    head = HAND[:HAND.index("  // 4. one thread issues")]
    tail = HAND[HAND.index("  // 5. wait for the MMAs"):]
    tail = _replace("  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n",
                    "  tcgen05.mbarrier.wait_parity %bar, %c1_i32 : !llvm.ptr<3>\n", tail)
    body = (
        "  %idesc = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32\n"
        "  %dp = llvm.inttoptr %d : i32 to !llvm.ptr<6>\n"
        "  %desc_a = tcgen05.smem_desc %a_base lbo 16 sbo 1024 swizzle_128b\n"
        "  %desc_b = tcgen05.smem_desc %b_base lbo 16 sbo 1024 swizzle_128b\n"
        "  %false = arith.constant false\n"
        "  %true = arith.constant true\n"
        "  scf.if %is_warp0 {\n    %elected = tcgen05.elect_sync\n    scf.if %elected {\n"
        + _ws_mma(*first, "%false") + between
        + "      tcgen05.commit %bar : !llvm.ptr<3>\n    }\n  }\n"
        "  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n"
        + ZERO_B
        + "  tcgen05.fence_proxy_async\n  nvvm.barrier\n"
        "  scf.if %is_warp0 {\n    %elected2 = tcgen05.elect_sync\n    scf.if %elected2 {\n"
        + _ws_mma(*second, "%true")
        + "      tcgen05.commit %bar : !llvm.ptr<3>\n    }\n  }\n"
    )
    return head + body + tail


def _expected(a, b, second_reads_old_b: bool) -> np.ndarray:
    d1 = (a[:, :16] @ b[:, :16].T).astype(np.float32)
    b2 = b if second_reads_old_b else np.zeros_like(b)  # shared memory's B is zeros by then
    return (a[:, :16] @ b2[:, :16].T + d1).astype(np.float32)


@pytest.mark.parametrize("second", ["use", "lastuse"])
def test_use_reads_the_b_the_fill_held_not_shared_memory(second):
    a, b, res = _run(_collector_kernel((1, "fill"), (1, second)))
    assert res.diagnostics == [], res.render()
    np.testing.assert_array_equal(res.args[2].reshape(128, 256), _expected(a, b, True))


@pytest.mark.parametrize("second", [(1, "fill"), (1, "discard"), (0, "discard")])
def test_fill_and_discard_read_shared_memory(second):
    a, b, res = _run(_collector_kernel((1, "fill"), second))
    assert res.diagnostics == [], res.render()
    np.testing.assert_array_equal(res.args[2].reshape(128, 256), _expected(a, b, False))


@pytest.mark.parametrize("first, between", [
    ((1, "discard"), ""),  # never filled
    ((2, "fill"), ""),  # another buffer filled
    ((1, "fill"), _ws_mma(1, "lastuse", "%true")),  # emptied by ::lastuse
    ((1, "fill"), _ws_mma(1, "discard", "%true")),  # emptied by ::discard
], ids=["never-filled", "other-buffer", "after-lastuse", "after-discard"])
def test_use_without_a_valid_fill_is_reported(first, between):
    """9.7.16.10.9.3: ::use "requires a previous fill to the collector buffer #N to be still
    valid"; without one what the tensor core reads is undefined: an error at the mma."""
    _, _, res = _run(_collector_kernel(first, (1, "use"), between))
    assert "uninitialized-read" in _kinds(res), res.render()
    assert "reads B from collector buffer b1 (.collector::b1::use)" in res.render()


def test_use_skips_the_shared_memory_race_a_read_would_be():
    """::use does not read shared memory: zeroing B while it runs (no wait for the first mma's
    commit before the stores) is no race for it, but is one for a ::fill."""
    for usage, racy in (("use", False), ("fill", True)):
        text = _collector_kernel((1, "fill"), (1, usage))
        # the second mma before the stores: move the zeroing after it (the first mma is complete)
        text = _replace(ZERO_B + "  tcgen05.fence_proxy_async\n", "", text)
        text = _replace("  // 5. wait for the MMAs", ZERO_B + "  // 5. wait for the MMAs", text)
        _, _, res = _run(text)
        assert bool(_kinds(res) & {"async-pending", "missing-proxy-fence", "shared-race"}) == racy, res.render()
        assert _kinds(res) <= {"async-pending", "missing-proxy-fence", "shared-race"}, res.render()
