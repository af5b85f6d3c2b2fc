"""tcgen05.mma, commit and mbarriers in the interpreter: the GEMM example against numpy, and each bug class with its legal twin."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tmem_dialect.dialects.tcgen05_mma", reason="the tcgen05.mma ops (branch mma) are not in this tree")

from tmem_dialect.interpreter import run_kernel

EXAMPLE = (Path(__file__).parent.parent / "examples" / "gemm_f16_tile.mlir").read_text()
"""The example: its accumulator is a tcgen05.buffer, which run_kernel plans before running."""
HAND = (Path(__file__).parent / "data" / "gemm_f16_tile_hand.mlir").read_text()
"""The same kernel allocating TMEM by hand: the misuse variants edit its alloc, dealloc and barriers."""


def operands(seed: int = 0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((128, 64)).astype(np.float16)
    b = rng.standard_normal((256, 64)).astype(np.float16)
    return a, b


def run(text: str, seed: int = 0, **options):
    a, b = operands(seed)
    res = run_kernel(text, kernel="gemm_f16_tile", args=[a.reshape(-1), b.reshape(-1), np.zeros(32768, np.float32)],
                     filename="gemm_f16_tile.mlir", **options)
    return a, b, res


def variant(old: str, new: str, text: str = HAND) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize("schedule", ["round-robin", "reverse", "random:3"])
def test_gemm_example_equals_numpy(schedule):
    a, b, res = run(EXAMPLE, schedule=schedule)
    assert res.diagnostics == [], res.render()
    c = res.args[2].reshape(128, 256)
    ref = a.astype(np.float64) @ b.astype(np.float64).T
    # docs/interpreter.md: one f32 rounding per k-step of 16
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-4)
    # and exactly the documented model: float64 sums, rounded to f32 after each instruction
    d = np.zeros((128, 256), np.float32)
    for k in range(4):
        s = slice(16 * k, 16 * k + 16)
        d = (a[:, s].astype(np.float64) @ b[:, s].astype(np.float64).T + d).astype(np.float32)
    np.testing.assert_array_equal(c, d)


WAIT = "  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n"
FENCE = "  tcgen05.fence_proxy_async\n"
INIT = "tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>"


def kinds(res, severity="error"):
    """The finding kinds of a run, by their stable spellings."""
    return {k.value for k in res.kinds(severity)}


def test_ld_of_d_before_the_commits_phase():
    _, _, res = run(variant(WAIT, ""))
    assert "async-pending" in kinds(res), res.render()
    text = res.render()
    assert "tcgen05.tile_load of warp" in text and "may still be in flight" in text


@pytest.mark.parametrize("schedule", ["round-robin", "reverse"])
def test_wrong_parity_passes_at_once_and_the_race_is_reported(schedule):
    """Parity 1 on the fresh barrier: a warp that waits before the commit passes at once and
    reads D unordered with the mma (the race); a warp that waits after it waits for phase 1,
    which never comes (the deadlock). Which warps do which depends on the schedule; both are
    reported as the misuse they are."""
    _, _, res = run(variant(WAIT, WAIT.replace("%c0_i32", "%c1_i32")), schedule=schedule)
    found = kinds(res)
    assert found & {"async-pending", "handoff"} or {"deadlock", "mbarrier-phase"} <= found, res.render()
    if "mbarrier-phase" in kinds(res, "note"):
        assert "names the phase before mbarrier.init" in res.render()
        assert found & {"async-pending", "handoff"}, res.render()


def test_wait_on_a_phase_nothing_completes_deadlocks_with_the_barrier_state():
    text = variant("      tcgen05.commit %bar : !llvm.ptr<3>\n", "")
    _, _, res = run(text)
    assert {"deadlock", "mbarrier-phase"} <= kinds(res), res.render()
    assert "0 of 1 arrivals" in res.render()


def test_arrive_count_mismatch():
    _, _, res = run(variant(INIT, INIT.replace("%c1_i32", "%c32_i32")))  # 32 arrivals expected, 1 commit
    assert {"deadlock", "mbarrier-count"} <= kinds(res), res.render()
    assert "only 1 of the 32 arrivals" in res.render()


def _dealloc_kernel(wait: bool) -> str:
    """Warp 0 issues the mmas and frees D itself; the epilogue is gone."""
    head, rest = HAND.split("      tcgen05.commit %bar : !llvm.ptr<3>\n    }\n  }\n")
    tail = rest[rest.index("  func.return"):]
    wait_text = "    tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n" if wait else ""
    return (head + "      tcgen05.commit %bar : !llvm.ptr<3>\n    }\n" + wait_text
            + "    tcgen05.dealloc %d, 256\n  }\n" + tail)


def test_dealloc_while_mma_in_flight_and_its_twin():
    _, _, res = run(_dealloc_kernel(wait=False))
    assert "async-pending" in kinds(res), res.render()
    assert "tcgen05.dealloc of warp 0 frees" in res.render()
    _, _, res = run(_dealloc_kernel(wait=True))
    assert res.errors == [], res.render()


def test_missing_fence_proxy_async():
    _, _, res = run(variant(FENCE, ""))
    assert "missing-proxy-fence" in kinds(res), res.render()
    assert "fence.proxy.async" in res.render()


def test_proxy_fence_of_the_writer_must_reach_the_issuer():
    """Warps 1-3 wrote rows 32..127; a fence that follows the barrier does not order their
    fences before the mma (nothing orders a fence executed after the barrier)."""
    text = variant(FENCE, "")
    text = variant("  tcgen05.fence after_thread_sync\n  %d = llvm.load", "  tcgen05.fence after_thread_sync\n" + FENCE
                   + "  %d = llvm.load", text)
    _, _, res = run(text)
    assert "missing-proxy-fence" in kinds(res), res.render()
    text = "\n".join(d.message for d in res.errors)
    # whether warp 1 has run its fence yet when warp 0 issues depends on the schedule; neither orders it
    assert "nothing orders that fence" in text or "no fence.proxy.async of warp" in text, text


INIT_BLOCK = """  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
"""


@pytest.mark.parametrize("schedule", ["round-robin", "reverse"])
def test_mbarrier_used_before_its_init_is_visible(schedule):
    """The elected thread initializes the barrier after the CTA barrier, just before the mmas:
    the other warps' waits are not ordered after the init."""
    text = variant(INIT_BLOCK, "")
    text = variant("      scf.for %k", "      " + INIT_BLOCK.splitlines()[1].strip() + "\n      scf.for %k", text)
    _, _, res = run(text, schedule=schedule)
    assert "mbarrier-uninitialized" in kinds(res), res.render()
    assert "partial-collective" not in kinds(res)


def test_init_visible_through_the_barrier_is_clean():
    """The legal twin: the example initializes before the CTA barrier (even without a
    fence.mbarrier_init, which orders the init for the cluster, not for this CTA's threads)."""
    _, _, res = run(variant("    tcgen05.fence_mbarrier_init\n", ""))
    assert res.errors == [], res.render()


CP_KERNEL = """
llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @rows() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x i32>
func.func @cp(%out: memref<1024xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c7_i32 = arith.constant 7 : i32
  %c8_i32 = arith.constant 8 : i32
  %c21_i32 = arith.constant 21 : i32
  %c32_i32 = arith.constant 32 : i32
  %c64_i32 = arith.constant 64 : i32
  %c8 = arith.constant 8 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  %rows = llvm.mlir.addressof @rows : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
  }
  // row t = words 8t .. 8t+7, K-major canonical: chunk k of row t at word (t/8)*64 + k*32 + (t%8)*4
  %first = arith.muli %tid, %c8_i32 : i32
  %v0 = vector.broadcast %first : i32 to vector<4xi32>
  %iota = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
  %lo = arith.addi %v0, %iota : vector<4xi32>
  %four = arith.constant dense<4> : vector<4xi32>
  %hi = arith.addi %lo, %four : vector<4xi32>
  %group = arith.shrui %tid, %c3_i32 : i32
  %in_group = arith.andi %tid, %c7_i32 : i32
  %g = arith.muli %group, %c64_i32 : i32
  %r = arith.muli %in_group, %c4_i32 : i32
  %w0 = arith.addi %g, %r : i32
  %w1 = arith.addi %w0, %c32_i32 : i32
  %p0 = llvm.getelementptr %rows[%w0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  %p1 = llvm.getelementptr %rows[%w1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  llvm.store %lo, %p0 : vector<4xi32>, !llvm.ptr<3>
  llvm.store %hi, %p1 : vector<4xi32>, !llvm.ptr<3>
  tcgen05.fence_proxy_async
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  scf.if %is_thread0 {
    %addr = llvm.ptrtoint %rows : !llvm.ptr<3> to i32
    %desc = tcgen05.smem_desc %addr lbo 128 sbo 256 none
    tcgen05.cp %base, %desc shape_128x256b
    tcgen05.commit %bar : !llvm.ptr<3>
  }
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %got = tcgen05.ld %taddr shape_32x32b x8 : vector<8xi32>
  tcgen05.wait load
  %t = arith.index_cast %tid : i32 to index
  %at = arith.muli %t, %c8 : index
  vector.store %got, %out[%at] : memref<1024xi32>, vector<8xi32>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 32
  }
  func.return
}
"""


def test_cp_128x256b_lands_row_by_row():
    res = run_kernel(CP_KERNEL, kernel="cp", args=[np.zeros(1024, np.int32)])
    assert res.diagnostics == [], res.render()
    assert (res.args[0] == np.arange(1024)).all()


def test_ld_of_cp_destination_before_the_commit():
    res = run_kernel(CP_KERNEL.replace("  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n", ""),
                     kernel="cp", args=[np.zeros(1024, np.int32)])
    assert kinds(res) & {"async-pending", "handoff"}, res.render()


def test_tmem_run_executes_the_gemm_example(capsys):
    """tmem-run on the example: A all ones, B all halves: every element of C is 64 * 0.5 = 32."""
    from tmem_dialect.tools.opt import run_tool
    from tmem_dialect.tools.run import TmemRun

    path = Path(__file__).parent.parent / "examples" / "gemm_f16_tile.mlir"
    rc = run_tool(lambda a: TmemRun(a), "tmem-run",
                  [str(path), "--arg", "f16:8192=1", "--arg", "f16:16384=0.5", "--arg", "f32:32768", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    import json

    c = np.array(json.loads(out)["args"][2], dtype=np.float32)
    assert c.shape == (32768,) and (c == 32.0).all()


REFILL = """      %zero = arith.constant dense<0.0> : vector<8xf16>
      llvm.store %zero, %sa : vector<8xf16>, !llvm.ptr<3>
"""


def test_refilling_a_stage_the_mma_still_reads_and_its_twin():
    """st.shared over A right after the commit (the next stage's load, too early), and the twin
    that refills only after observing the commit's phase."""
    early = variant("      tcgen05.commit %bar : !llvm.ptr<3>\n",
                    "      tcgen05.commit %bar : !llvm.ptr<3>\n" + REFILL)
    _, _, res = run(early)
    assert "async-pending" in kinds(res), res.render()
    assert "may still be reading" in res.render()
    late = variant(WAIT, WAIT + "  scf.if %is_thread0 {\n" + REFILL.replace("      ", "    ") + "  }\n")
    _, _, res = run(late)
    assert res.errors == [], res.render()


SECOND_MMA = """  scf.if %is_warp0 {
    %e2 = tcgen05.elect_sync
    scf.if %e2 {
      %sa2 = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
      %sb2 = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
      %da2 = tcgen05.smem_desc %sa2 lbo 16 sbo 1024 swizzle_128b
      %db2 = tcgen05.smem_desc %sb2 lbo 16 sbo 1024 swizzle_128b
      %id2 = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
      %false = arith.constant false
      tcgen05.mma f16 %d, %da2, %db2, %id2, %false : i64
      tcgen05.commit %bar : !llvm.ptr<3>
    }
  }
"""
SECOND_WAIT = "  tcgen05.mbarrier.wait_parity %bar, %c1_i32 : !llvm.ptr<3>\n"
EPILOGUE_BARRIER = "  tcgen05.fence before_thread_sync\n  nvvm.barrier\n  scf.if %is_warp0 {\n    tcgen05.fence after_thread_sync\n"


def test_mma_overwriting_d_that_an_ld_still_reads_and_its_twin():
    """A second, non-accumulating mma into D: issued before the epilogue's wait::ld (and before
    the other warps' reads are handed back), it races the lds; issued after wait::ld, the fences
    and a barrier, and completed through the barrier's next phase (parity 1), it is clean."""
    early = variant("  tcgen05.wait load\n", SECOND_MMA + "  tcgen05.wait load\n")
    early = variant(EPILOGUE_BARRIER, "  tcgen05.fence before_thread_sync\n  nvvm.barrier\n" + SECOND_WAIT
                    + "  scf.if %is_warp0 {\n    tcgen05.fence after_thread_sync\n", early)
    _, _, res = run(early)
    assert "anti-dependency" in kinds(res), res.render()  # rule 1: wait::ld before the mma
    # (warps 1-3, still waiting for parity 0 once both commits arrived, now wait for phase 2:
    # the parity aliasing of a barrier two phases ahead of its waiter, reported as a deadlock)
    late = variant(EPILOGUE_BARRIER, "  tcgen05.fence before_thread_sync\n  nvvm.barrier\n  tcgen05.fence after_thread_sync\n"
                   + SECOND_MMA + SECOND_WAIT + "  scf.if %is_warp0 {\n    tcgen05.fence after_thread_sync\n")
    _, _, res = run(late)
    assert res.errors == [], res.render()


@pytest.mark.parametrize("source, bits", [("b6x16_p32", 6), ("b4x16_p64", 4)])
def test_cp_decompression_expands_each_chunk_to_16_bytes(source, bits):
    """PTX ISA 9.7.16.9.1: 16 contiguous b-bit elements followed by padding (16 bytes) become 16
    8-bit elements; element i is bits [b*i, b*i+b) of the little-endian chunk and lands in byte i,
    the 6-bit code in bits 0-5, the 4-bit one in bits 2-5 (isa.TMEM_SUBBYTE_SHIFT's sources)."""
    res = run_kernel(CP_KERNEL.replace("shape_128x256b", f"shape_128x256b source {source}"), kernel="cp",
                     args=[np.zeros(1024, np.int32)])
    assert res.diagnostics == [], res.render()
    source_bytes = np.arange(1024, dtype=np.int32).view(np.uint8).reshape(128, 2, 16)  # row, chunk, byte
    shift = 0 if bits == 6 else 2
    expected = np.zeros((128, 2, 16), np.uint8)
    for row in range(128):
        for chunk in range(2):
            value = int.from_bytes(source_bytes[row, chunk].tobytes(), "little")
            for i in range(16):
                expected[row, chunk, i] = ((value >> (bits * i)) & ((1 << bits) - 1)) << shift
    assert (res.args[0].view(np.uint8).reshape(128, 2, 16) == expected).all()


def test_cp_decompression_reads_no_padding_byte():
    """The padding of a chunk is not read: a generic store to it needs no proxy fence."""
    kernel = CP_KERNEL.replace("shape_128x256b", "shape_128x256b source b4x16_p64")
    # after the fenced stores, rewrite bytes 8..15 of row 0's first chunk (padding) without a fence
    late = ("  %pad = llvm.getelementptr %rows[2] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i32\n"
            "  scf.if %is_thread0 {\n"
            "    %z = arith.constant dense<0> : vector<2xi32>\n"
            "    llvm.store %z, %pad : vector<2xi32>, !llvm.ptr<3>\n"
            "  }\n")
    anchor = "  %base = llvm.load %slot : !llvm.ptr<3> -> i32\n"
    assert kernel.count(anchor) == 1
    res = run_kernel(kernel.replace(anchor, late + anchor), kernel="cp", args=[np.zeros(1024, np.int32)])
    assert res.diagnostics == [], res.render()
    payload = kernel.replace("%rows[2]", "%rows[0]")
    res = run_kernel(payload.replace(anchor, late.replace("%rows[2]", "%rows[0]") + anchor), kernel="cp",
                     args=[np.zeros(1024, np.int32)])
    assert "missing-proxy-fence" in kinds(res), res.render()


A_TMEM_KERNEL = """
llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @a_src() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x i32>
llvm.mlir.global internal @b_src() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<256 x i32>
func.func @a_tmem(%a: memref<1024xi32>, %b: memref<256xi32>, %out: memref<4096xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %c32_i32 = arith.constant 32 : i32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  %sa = llvm.mlir.addressof @a_src : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @b_src : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
  }
  // the operands arrive in their shared-memory order: thread t copies words 8t..8t+7 of A's
  // packed source and words 2t, 2t+1 of B
  %t = arith.index_cast %tid : i32 to index
  %at = arith.muli %t, %c8 : index
  %at4 = arith.addi %at, %c4 : index
  %va0 = vector.load %a[%at] : memref<1024xi32>, vector<4xi32>
  %va1 = vector.load %a[%at4] : memref<1024xi32>, vector<4xi32>
  %at_i = arith.index_cast %at : index to i32
  %at4_i = arith.index_cast %at4 : index to i32
  %pa0 = llvm.getelementptr %sa[%at_i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  %pa1 = llvm.getelementptr %sa[%at4_i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  llvm.store %va0, %pa0 : vector<4xi32>, !llvm.ptr<3>
  llvm.store %va1, %pa1 : vector<4xi32>, !llvm.ptr<3>
  %bt = arith.muli %t, %c2 : index
  %vb = vector.load %b[%bt] : memref<256xi32>, vector<2xi32>
  %bt_i = arith.index_cast %bt : index to i32
  %pb = llvm.getelementptr %sb[%bt_i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  llvm.store %vb, %pb : vector<2xi32>, !llvm.ptr<3>
  tcgen05.fence_proxy_async
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %idesc = tcgen05.instr_desc f8f6f4 m 128 n 32 a ATYPE b e4m3 d f32
  scf.if %is_thread0 {
    %a_addr = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
    %b_addr = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
    %desc_a = tcgen05.smem_desc %a_addr lbo 128 sbo 256 none
    %desc_b = tcgen05.smem_desc %b_addr lbo 128 sbo 256 none
    %a_tmem = arith.addi %base, %c32_i32 : i32
    tcgen05.cp %a_tmem, %desc_a shape_128x256b source SOURCE
    %false = arith.constant false
    tcgen05.mma f8f6f4 %base, %a_tmem, %desc_b, %idesc, %false : i32
    tcgen05.commit %bar : !llvm.ptr<3>
  }
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %got = tcgen05.ld %taddr shape_32x32b x32 : vector<32xi32>
  tcgen05.wait load
  %f = arith.bitcast %got : vector<32xi32> to vector<32xf32>
  %ot = arith.muli %t, %c32 : index
  vector.store %f, %out[%ot] : memref<4096xf32>, vector<32xf32>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 64
  }
  func.return
}
"""
"""A 128x32x32 kind::f8f6f4 mma with A in TMEM, decompressed there by tcgen05.cp from its packed
shared-memory form (ATYPE, SOURCE), and B (32 x 32 e4m3) from shared memory; D row r in lane r."""


def _canonical_offset(row: int, byte: int) -> int:
    """Byte offset of byte `byte` of K-major row `row`: no swizzle, LBO 128, SBO 256 (isa.smem)."""
    return (row // 8) * 256 + (byte // 16) * 128 + (row % 8) * 16 + byte % 16


def _e4m3(code: int) -> float:
    sign = -1.0 if code >> 7 else 1.0
    e, m = (code >> 3) & 15, code & 7
    return sign * (m / 8 * 2.0**-6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))


def _e2mx(code: int, mantissa_bits: int) -> float:
    """e2m1 / e2m3 (exponent bias 1, no infinities or NaN; PTX ISA 5.2.3)."""
    sign = -1.0 if code >> (2 + mantissa_bits) else 1.0
    e, m = (code >> mantissa_bits) & 3, code & ((1 << mantissa_bits) - 1)
    frac = m / (1 << mantissa_bits)
    return sign * (frac if e == 0 else (1 + frac) * 2.0 ** (e - 1))


@pytest.mark.parametrize("a_type, source, bits", [("e2m1", "b4x16_p64", 4), ("e2m3", "b6x16_p32", 6)])
def test_mma_reads_a_decompressed_into_tmem(a_type, source, bits):
    """cp decompression writes the 8-bit containers that kind::f8f6f4 reads A from in TMEM (PTX
    ISA 9.7.16.10.4.3): D = A.B with A's codes packed 16 per chunk in shared memory."""
    rng = np.random.default_rng(7)
    a_codes = rng.integers(0, 1 << bits, (128, 32))
    b_codes = rng.integers(0, 0x78, (32, 32)) | (rng.integers(0, 2, (32, 32)) << 7)  # no NaN
    a_smem = np.zeros(4096, np.uint8)
    for r in range(128):
        for chunk in range(2):
            value = sum(int(c) << (bits * i) for i, c in enumerate(a_codes[r, 16 * chunk:16 * chunk + 16]))
            payload = value.to_bytes(16, "little")[: 16 * bits // 8]
            for j, byte in enumerate(payload):
                a_smem[_canonical_offset(r, 16 * chunk + j)] = byte
    b_smem = np.zeros(1024, np.uint8)
    for n in range(32):
        for kk in range(32):
            b_smem[_canonical_offset(n, kk)] = b_codes[n, kk]
    text = A_TMEM_KERNEL.replace("ATYPE", a_type).replace("SOURCE", source)
    res = run_kernel(text, kernel="a_tmem", args=[a_smem.view(np.int32), b_smem.view(np.int32),
                                                  np.zeros(4096, np.float32)])
    assert res.diagnostics == [], res.render()
    a = np.vectorize(lambda c: _e2mx(int(c), bits - 3))(a_codes)
    b = np.vectorize(lambda c: _e4m3(int(c)))(b_codes)
    assert (res.args[2].reshape(128, 32) == (a @ b.T).astype(np.float32)).all()


A_SMEM_KERNEL = (
    A_TMEM_KERNEL.replace("    tcgen05.cp %a_tmem, %desc_a shape_128x256b source SOURCE\n", "")
    .replace("%base, %a_tmem, %desc_b, %idesc, %false : i32", "%base, %desc_a, %desc_b, %idesc, %false : i64")
    .replace("b e4m3 d f32", "b BTYPE d f32")
)
"""The same mma with A and B both read from shared memory."""


def _e3m2(code: int) -> float:
    """e3m2 (exponent bias 3, no infinities or NaN; PTX ISA 5.2.3)."""
    sign = -1.0 if code >> 5 else 1.0
    e, m = (code >> 2) & 7, code & 3
    return sign * (m / 4 * 2.0**-2 if e == 0 else (1 + m / 4) * 2.0 ** (e - 3))


def _packed_rows(codes: np.ndarray, bits: int) -> np.ndarray:
    """Rows of 32 codes in shared memory (no swizzle, LBO 128, SBO 256), each 16 codes one chunk:
    packed little-endian, then padding (PTX ISA 9.7.16.10.4.4; the padding bytes stay 0xEE)."""
    out = np.full(codes.shape[0] * 32, 0xEE, np.uint8)
    for r in range(codes.shape[0]):
        for chunk in range(2):
            value = sum(int(c) << (bits * i) for i, c in enumerate(codes[r, 16 * chunk:16 * chunk + 16]))
            for j, byte in enumerate(value.to_bytes(16, "little")[: 16 * bits // 8]):
                out[_canonical_offset(r, 16 * chunk + j)] = byte
    return out


@pytest.mark.parametrize("a_type, b_type", [("e2m1", "e3m2"), ("e2m3", "e2m1")])
def test_f8f6f4_reads_sub_byte_operands_packed_with_padding_from_shared_memory(a_type, b_type):
    """kind::f8f6f4 reads 4- and 6-bit A and B from 16-byte chunks of 16 packed codes plus padding
    (PTX ISA 9.7.16.10.4.4, the TMA's .b4x16_p64 / .b6x16_p32): D = A.B against numpy."""
    bits = {"e2m1": 4, "e2m3": 6, "e3m2": 6}
    value = {"e2m1": lambda c: _e2mx(c, 1), "e2m3": lambda c: _e2mx(c, 3), "e3m2": _e3m2}
    rng = np.random.default_rng(11)
    a_codes = rng.integers(0, 1 << bits[a_type], (128, 32))
    b_codes = rng.integers(0, 1 << bits[b_type], (32, 32))
    text = A_SMEM_KERNEL.replace("ATYPE", a_type).replace("BTYPE", b_type)
    args = [_packed_rows(a_codes, bits[a_type]).view(np.int32), _packed_rows(b_codes, bits[b_type]).view(np.int32),
            np.zeros(4096, np.float32)]
    res = run_kernel(text, kernel="a_tmem", args=args)
    assert res.diagnostics == [], res.render()
    a = np.vectorize(lambda c: value[a_type](int(c)))(a_codes)
    b = np.vectorize(lambda c: value[b_type](int(c)))(b_codes)
    assert (res.args[2].reshape(128, 32) == (a @ b.T).astype(np.float32)).all()
