"""The interpreter's TMA: tensor-map loads in every swizzle mode against numpy, OOB fill, tx-count completion, phases, bulk stores."""

from __future__ import annotations

import numpy as np
import pytest

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import TensorMap, parse_tensor_map, run_kernel

TILE_BYTES = 4096

# Thread 0 initializes the barrier, arms it for EXPECT bytes and issues the load; every thread
# waits on PARITY, then copies the 4096 raw bytes of the tile to `out` (32 threads x 32 words).
LOAD = """
module {
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @tma_load(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %out: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
    %smem = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %dst = llvm.addrspacecast %smem : !llvm.ptr<3> to !llvm.ptr<7>
    %one = llvm.mlir.constant(1 : i32) : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %parity = llvm.mlir.constant(PARITY : i32) : i32
    %bytes = llvm.mlir.constant(EXPECT : i32) : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %is0 = llvm.icmp "eq" %tid, %zero : i32
    llvm.cond_br %is0, ^init, ^sync
  ^init:
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    nvvm.fence.mbarrier.init
    llvm.br ^sync
  ^sync:
    nvvm.barrier
    llvm.cond_br %is0, ^issue, ^wait
  ^issue:
    %st = nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32 -> i64
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] : !llvm.ptr<7>, !llvm.ptr
    llvm.br ^wait
  ^wait:
    nvvm.mbarrier.try_wait.parity %bar, %parity, %zero : !llvm.ptr<3>, i32, i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %off = llvm.mul %tid, %c128 : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %n = llvm.mlir.constant(32 : i32) : i32
    llvm.br ^loop(%zero : i32)
  ^loop(%i: i32):
    %more = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %more, ^body, ^done
  ^body:
    %i4 = llvm.mul %i, %c4 : i32
    %o = llvm.add %off, %i4 : i32
    %ps = llvm.getelementptr %smem[%o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %v = llvm.load %ps : !llvm.ptr<3> -> i32
    %pg = llvm.getelementptr %out[%o] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    llvm.store %v, %pg : i32, !llvm.ptr<1>
    %i1 = llvm.add %i, %one : i32
    llvm.br ^loop(%i1 : i32)
  ^done:
    llvm.return
  }
}
"""


def load_kernel(expect: int = TILE_BYTES, parity: int = 0) -> str:
    return LOAD.replace("EXPECT", str(expect)).replace("PARITY", str(parity))


def swizzled(address: np.ndarray, mode: str) -> np.ndarray:
    """The TMA swizzles written out independently of isa/smem_descriptor: 16-byte chunk bits
    [4, 4+b) XOR row bits [7, 7+b) (32B: b=1, 64B: 2, 128B: 3); the 32-byte-atom 128B mode
    XORs the 32-byte unit bits [5, 7) with bits [7, 9)."""
    if mode == "none":
        return address
    if mode == "128B_atom_32B":
        return address ^ (((address >> 7) & 3) << 5)
    b = {"32B": 1, "64B": 2, "128B": 3}[mode]
    return address ^ (((address >> 7) & ((1 << b) - 1)) << 4)


def expected_tile(src: np.ndarray, x: int, y: int, inner: int, rows: int, mode: str) -> np.ndarray:
    """The shared-memory bytes of a (rows x inner) f16 box of `src` at column x, row y."""
    box = np.zeros((rows, inner), np.float16)
    r0, r1 = max(y, 0), min(y + rows, src.shape[0])
    c0, c1 = max(x, 0), min(x + inner, src.shape[1])
    if r0 < r1 and c0 < c1:
        box[r0 - y:r1 - y, c0 - x:c1 - x] = src[r0:r1, c0:c1]
    plain = np.arange(box.size * 2).reshape(-1)
    out = np.zeros(box.size * 2, np.uint8)
    out[swizzled(plain, mode)] = box.reshape(-1).view(np.uint8)
    return out


SRC = (np.arange(96 * 80) % 2039).astype(np.float16).reshape(96, 80)  # 96 rows (dim 1), 80 columns (dim 0)


@pytest.mark.parametrize("mode,inner", [("none", 64), ("32B", 16), ("64B", 32), ("128B", 64), ("128B_atom_32B", 64)])
@pytest.mark.parametrize("x,y", [(8, 16), (40, 70), (-8, -4)])
def test_tile_load_lands_in_the_swizzle_layout(mode: str, inner: int, x: int, y: int) -> None:
    rows = TILE_BYTES // 2 // inner
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(inner, rows), swizzle=mode)
    res = run_kernel(load_kernel(), "tma_load", 32, [tm, SRC, np.zeros(2048, np.float16), x, y])
    assert not res.errors, [str(f.diagnostic) for f in res.findings]
    got = res.args[2].view(np.uint8)
    want = expected_tile(SRC, x, y, inner, rows, mode)
    assert (got == want).all()


def test_out_of_bound_elements_are_zero() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(load_kernel(), "tma_load", 32, [tm, SRC + 1, np.full(2048, 7, np.float16), 40, 80])
    assert not res.errors
    box = res.args[2].reshape(32, 64)
    assert (box[:16, :40] == SRC[80:96, 40:80] + 1).all()
    assert (box[16:, :] == 0).all() and (box[:, 40:] == 0).all()


def kinds(res) -> set[FindingKind]:
    return {f.kind for f in res.findings if f.diagnostic.severity.name.lower() != "note"}


def test_tx_count_short_of_the_box_is_reported() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(load_kernel(expect=2048), "tma_load", 32, [tm, SRC, np.zeros(2048, np.float16), 0, 0])
    assert FindingKind.TX_COUNT in kinds(res)
    assert "complete_tx of 4096 bytes when only 2048 were expected" in "\n".join(str(f.diagnostic) for f in res.findings)


def test_tx_count_beyond_the_box_never_completes() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(load_kernel(expect=8192), "tma_load", 32, [tm, SRC, np.zeros(2048, np.float16), 0, 0])
    found = kinds(res)
    assert FindingKind.DEADLOCK in found and FindingKind.TX_COUNT in found
    assert "4096 expected transaction bytes never arrive" in "\n".join(str(f.diagnostic) for f in res.findings)


def test_matching_tx_count_completes_the_phase() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(load_kernel(expect=4096), "tma_load", 32, [tm, SRC, np.zeros(2048, np.float16), 0, 0])
    assert not res.findings


def test_waiting_on_the_wrong_phase_deadlocks() -> None:
    """Parity 1 names the phase after the one the copy completes: nothing completes it."""
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(load_kernel(parity=1), "tma_load", 32, [tm, SRC, np.zeros(2048, np.float16), 0, 0])
    assert FindingKind.DEADLOCK in kinds(res)


def test_reading_before_the_wait_is_reported() -> None:
    """The issuing thread reads the tile before any wait (the wait is moved after the copy-out)."""
    text = load_kernel().replace("    nvvm.mbarrier.try_wait.parity %bar, %parity, %zero : !llvm.ptr<3>, i32, i32\n", "")
    text = text.replace("  ^done:\n", "  ^done:\n    nvvm.mbarrier.try_wait.parity %bar, %parity, %zero : !llvm.ptr<3>, i32, i32\n")
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    # expect 8192: the phase cannot complete, so the read is surely before it
    res = run_kernel(text.replace("4096 : i32) : i32\n    %tid", "8192 : i32) : i32\n    %tid"), "tma_load", 32,
                     [tm, SRC, np.zeros(2048, np.float16), 0, 0])
    assert FindingKind.ASYNC_PENDING in kinds(res) or FindingKind.SHARED_RACE in kinds(res)


# Generic st.shared of a 32 x 32 f32 tile (thread t writes row t), fence.proxy.async, a TMA store
# to `out` through the tensor map, commit and wait_group.read, then STORE_AFTER.
STORE = """
module {
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
  llvm.func @tma_store(%tmap: !llvm.ptr, %out: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
    %smem = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %zero = llvm.mlir.constant(0 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %n = llvm.mlir.constant(32 : i32) : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %row = llvm.mul %tid, %n : i32
    llvm.br ^loop(%zero : i32)
  ^loop(%i: i32):
    %more = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %more, ^body, ^done
  ^body:
    %e = llvm.add %row, %i : i32
    %f = llvm.sitofp %e : i32 to f32
    %p = llvm.getelementptr %smem[%e] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    llvm.store %f, %p : f32, !llvm.ptr<3>
    %i1 = llvm.add %i, %one : i32
    llvm.br ^loop(%i1 : i32)
  ^done:
    FENCE
    nvvm.barrier
    %is0 = llvm.icmp "eq" %tid, %zero : i32
    llvm.cond_br %is0, ^issue, ^end
  ^issue:
    nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %smem, box[%x, %y] : !llvm.ptr, !llvm.ptr<3>
    nvvm.cp.async.bulk.commit.group
    STORE_AFTER
    llvm.br ^end
  ^end:
    llvm.return
  }
}
"""
FENCE = "nvvm.fence.proxy <async.shared>, space = <cta>"
WAIT = "nvvm.cp.async.bulk.wait_group 0 read"
REUSE = "%z = llvm.mlir.constant(0.0 : f32) : f32\n    llvm.store %z, %smem : f32, !llvm.ptr<3>"


def store_kernel(fence: bool = True, after: str = WAIT) -> str:
    return STORE.replace("FENCE", FENCE if fence else "").replace("STORE_AFTER", after)


def test_bulk_store_round_trip() -> None:
    tm = TensorMap(buffer=1, dtype="f32", dims=(48, 40), box=(32, 32))
    out = np.full((40, 48), -1, np.float32)
    res = run_kernel(store_kernel(), "tma_store", 32, [tm, out, 8, 4])
    assert not res.errors, [str(f.diagnostic) for f in res.findings]
    got = res.args[1]
    tile = np.arange(1024, dtype=np.float32).reshape(32, 32)
    want = out.copy()
    want[4:36, 8:40] = tile  # in bounds entirely
    assert (got == want).all()


def test_bulk_store_skips_out_of_bound_elements() -> None:
    tm = TensorMap(buffer=1, dtype="f32", dims=(48, 40), box=(32, 32))
    out = np.full((40, 48), -1, np.float32)
    res = run_kernel(store_kernel(), "tma_store", 32, [tm, out, 24, 20])
    assert not res.errors
    tile = np.arange(1024, dtype=np.float32).reshape(32, 32)
    want = out.copy()
    want[20:40, 24:48] = tile[:20, :24]
    assert (res.args[1] == want).all()


def test_bulk_store_needs_the_proxy_fence() -> None:
    tm = TensorMap(buffer=1, dtype="f32", dims=(48, 40), box=(32, 32))
    res = run_kernel(store_kernel(fence=False), "tma_store", 32, [tm, np.zeros((40, 48), np.float32), 0, 0])
    assert FindingKind.MISSING_PROXY_FENCE in kinds(res)


def test_reusing_the_source_before_wait_group_read_is_reported() -> None:
    tm = TensorMap(buffer=1, dtype="f32", dims=(48, 40), box=(32, 32))
    out = np.zeros((40, 48), np.float32)
    early = run_kernel(store_kernel(after=REUSE + "\n    " + WAIT), "tma_store", 32, [tm, out, 0, 0])
    assert FindingKind.ASYNC_PENDING in kinds(early)
    late = run_kernel(store_kernel(after=WAIT + "\n    " + REUSE), "tma_store", 32, [tm, out, 0, 0])
    assert not late.errors


def test_tensor_map_spec() -> None:
    tm = parse_tensor_map("tensormap:buffer=1,type=f16,dims=80x96,box=64x32,swizzle=128B")
    assert tm == TensorMap(1, "f16", (80, 96), (64, 32), None, "128B")
    assert tm.byte_strides == (160,)
    for bad, why in [
        ("tensormap:buffer=1,type=f16,dims=80x96,box=64x300", "box dimension 1 is 300"),
        ("tensormap:buffer=1,type=f16,dims=80x96,box=4x32", "multiple of 16"),
        ("tensormap:buffer=1,type=f16,dims=80x96,box=128x8,swizzle=128B", "more than the 128B swizzle span"),
        ("tensormap:buffer=1,type=f16,dims=80x96,box=64x32,strides=100", "multiple of 16"),
        ("tensormap:type=f16,dims=80x96,box=64x32", "give 'buffer='"),
        ("tensormap:buffer=1,fill=iota,type=f16,dims=80x96,box=64x32", "give 'buffer='"),
        ("tensormap:fill=x,type=f16,dims=80x96,box=64x32", "fill=x is not"),
        ("tensormap:buffer=1,type=f16,dims=1x1x1x1x1x1,box=8x1x1x1x1x1", "a tensor map has"),
    ]:
        with pytest.raises(ValueError, match=why):
            parse_tensor_map(bad)


def test_a_bad_tensor_map_is_an_argument_error() -> None:
    tm = TensorMap(buffer=0, dtype="f16", dims=(80, 96), box=(64, 32))  # buffer 0 is the map itself
    res = run_kernel(load_kernel(), "tma_load", 32, [tm, SRC, np.zeros(2048, np.float16), 0, 0])
    assert FindingKind.BAD_ARGUMENTS in kinds(res)


# ---- a TMA load over the stage an mma still reads (the gemm example, one more load) -----------

from pathlib import Path  # noqa: E402

GEMM = (Path(__file__).parent.parent / "examples" / "gemm_f16_tile.mlir").read_text()
REFILL_A = """      %tb = llvm.mlir.addressof @tma_bar : !llvm.ptr<3>
      %one_t = arith.constant 1 : i32
      %bytes_t = arith.constant 4096 : i32
      %x_t = arith.constant 0 : i32
      tcgen05.mbarrier.init %tb, %one_t : !llvm.ptr<3>
      %st_t = tcgen05.mbarrier.arrive_expect_tx %tb, %bytes_t : !llvm.ptr<3>
      %dst_t = llvm.addrspacecast %sa : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst_t, %tmap, %tb, box[%x_t, %x_t] : !llvm.ptr<7>, !llvm.ptr
"""
COMMIT = "      tcgen05.commit %bar : !llvm.ptr<3>\n"
MMA_WAIT = "  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n"


def gemm_with_refill(early: bool) -> str:
    text = GEMM.replace("%c: memref<32768xf32>)", "%c: memref<32768xf32>, %tmap: !llvm.ptr)", 1)
    text = text.replace("llvm.mlir.global internal @smem_a()",
                        'llvm.mlir.global internal @tma_bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64\n'
                        "llvm.mlir.global internal @smem_a()", 1)
    if early:
        assert text.count(COMMIT) == 1
        return text.replace(COMMIT, COMMIT + REFILL_A)
    assert text.count(MMA_WAIT) == 1
    return text.replace(MMA_WAIT, MMA_WAIT + "  scf.if %is_thread0 {\n" + REFILL_A + "  }\n")


def run_gemm(text: str):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((128, 64)).astype(np.float16)
    b = rng.standard_normal((256, 64)).astype(np.float16)
    tm = TensorMap(buffer=0, dtype="f16", dims=(64, 128), box=(64, 32))
    return run_kernel(text, "gemm_f16_tile", 128, [a.reshape(-1), b.reshape(-1), np.zeros(32768, np.float32), tm])


def test_tma_into_a_stage_an_mma_still_reads_and_its_twin() -> None:
    early = run_gemm(gemm_with_refill(early=True))
    assert FindingKind.ASYNC_PENDING in kinds(early)
    assert "may still be reading" in "\n".join(str(f.diagnostic) for f in early.findings)
    late = run_gemm(gemm_with_refill(early=False))
    assert not late.errors, [str(f.diagnostic) for f in late.findings]


# ---- multicast to both CTAs of a pair ---------------------------------------------------------

MULTICAST = LOAD.replace(
    "nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] :",
    "nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] multicast_mask = %mask :",
).replace("    %tid = nvvm.read.ptx.sreg.tid.x : i32\n",
          "    %tid = nvvm.read.ptx.sreg.tid.x : i32\n    %mask = llvm.mlir.constant(MASK : i16) : i16\n"
          "    %cta = nvvm.read.ptx.sreg.ctaid.x : i32\n    %leader = llvm.icmp \"eq\" %cta, %zero : i32\n")


def multicast_kernel(mask: int) -> str:
    """CTA 0's thread 0 issues one load for the CTAs of `mask`; each CTA arms its own barrier
    (thread 0) and waits on it; both copy their tile to `out` (the same data when both got it)."""
    text = MULTICAST.replace("EXPECT", "4096").replace("PARITY", "0").replace("MASK", str(mask))
    # both inits are visible cluster-wide before the copy (a cluster barrier); only CTA 0 issues
    # the copy, CTA 1 just arms its barrier
    text = text.replace("  ^sync:\n    nvvm.barrier\n", "  ^sync:\n    nvvm.cluster.arrive\n    nvvm.cluster.wait\n")
    text = text.replace(
        "    nvvm.cp.async.bulk.tensor.shared.cluster.global",
        "    llvm.cond_br %leader, ^copy, ^wait\n  ^copy:\n    nvvm.cp.async.bulk.tensor.shared.cluster.global")
    # CTA c copies its tile to out[c * 4096 bytes ...]; the shared offset stays tid * 128
    text = text.replace("    %pg = llvm.getelementptr %out[%o]",
                        "    %c4096 = llvm.mlir.constant(4096 : i32) : i32\n    %base = llvm.mul %cta, %c4096 : i32\n"
                        "    %og = llvm.add %o, %base : i32\n    %pg = llvm.getelementptr %out[%og]")
    return text


def test_multicast_lands_in_both_ctas_of_the_pair() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32), swizzle="128B")
    res = run_kernel(multicast_kernel(0b11), "tma_load", 32, [tm, SRC, np.zeros(4096, np.float16), 8, 16],
                     cta_pair=True)
    assert not res.errors, [str(f.diagnostic) for f in res.findings]
    want = expected_tile(SRC, 8, 16, 64, 32, "128B")
    got = res.args[2].view(np.uint8)
    assert (got[:4096] == want).all() and (got[4096:] == want).all()  # CTA 0's and CTA 1's shared memory


def test_multicast_missing_a_cta_leaves_its_barrier_waiting() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(multicast_kernel(0b01), "tma_load", 32, [tm, SRC, np.zeros(4096, np.float16), 0, 0],
                     cta_pair=True)
    assert FindingKind.DEADLOCK in kinds(res)


def test_multicast_beyond_the_cluster_is_reported() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(multicast_kernel(0b101), "tma_load", 32, [tm, SRC, np.zeros(4096, np.float16), 0, 0],
                     cta_pair=True)
    assert "names CTA rank 2, but the cluster of this run has 2 CTA(s)" in "\n".join(
        str(f.diagnostic) for f in res.findings)


# ---- the tcgen05-level ops: the same kernels, before and after convert-tcgen05-to-nvvm -------

def tcgen05_level(text: str) -> str:
    text = text.replace("    %dst = llvm.addrspacecast %smem : !llvm.ptr<3> to !llvm.ptr<7>\n", "")
    text = text.replace("nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] : !llvm.ptr<7>, !llvm.ptr",
                        "tcgen05.tma_load %smem, %tmap [%x, %y], %bar")
    text = text.replace("nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %smem, box[%x, %y] : !llvm.ptr, !llvm.ptr<3>",
                        "tcgen05.tma_store %tmap [%x, %y], %smem")
    text = text.replace("nvvm.cp.async.bulk.commit.group", "tcgen05.bulk_commit_group")
    text = text.replace("nvvm.cp.async.bulk.wait_group 0 read", "tcgen05.bulk_wait_group 0 read")
    assert "nvvm.cp.async" not in text
    return text


def lowered(text: str) -> str:
    from tmem_dialect.dialects import make_context
    from tmem_dialect.ir import parse_module
    from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass

    ctx = make_context()
    module = parse_module(ctx, text)
    ConvertTcgen05ToNVVMPass().apply(ctx, module)
    out = str(module)
    assert "tcgen05." not in out and "nvvm.cp.async.bulk" in out
    return out


@pytest.mark.parametrize("stage", ["tcgen05", "lowered"])
def test_tcgen05_level_load_and_store(stage: str) -> None:
    load, store = tcgen05_level(load_kernel()), tcgen05_level(store_kernel())
    if stage == "lowered":
        load, store = lowered(load), lowered(store)
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32), swizzle="128B")
    res = run_kernel(load, "tma_load", 32, [tm, SRC, np.zeros(2048, np.float16), 8, 16])
    assert not res.errors, [str(f.diagnostic) for f in res.findings]
    assert (res.args[2].view(np.uint8) == expected_tile(SRC, 8, 16, 64, 32, "128B")).all()
    tm = TensorMap(buffer=1, dtype="f32", dims=(48, 40), box=(32, 32))
    res = run_kernel(store, "tma_store", 32, [tm, np.zeros((40, 48), np.float32), 8, 4])
    assert not res.errors, [str(f.diagnostic) for f in res.findings]
    assert (res.args[1][4:36, 8:40] == np.arange(1024, dtype=np.float32).reshape(32, 32)).all()


# ---- a refill over bytes another warp read, with and without the barrier that orders it ------

def refill_kernel(barrier: bool) -> str:
    """Two warps read the tile after the first load's phase; thread 0 then loads again into it
    (completing on a second barrier) and everyone waits on that. Without a barrier between the
    reads and the second load, warp 1's reads and the copy's writes are unordered."""
    text = load_kernel().replace("nvvm.reqntid = array<i32: 32, 1, 1>", "nvvm.reqntid = array<i32: 64, 1, 1>")
    text = text.replace("  llvm.mlir.global internal @bar()",
                        "  llvm.mlir.global internal @bar2() {addr_space = 3 : i32, alignment = 8 : i64} : i64\n"
                        "  llvm.mlir.global internal @bar()")
    text = text.replace("    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32\n",
                        "    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32\n"
                        "    %bar2i = llvm.mlir.addressof @bar2 : !llvm.ptr<3>\n"
                        "    nvvm.mbarrier.init %bar2i, %one : !llvm.ptr<3>, i32\n")
    text = text.replace("    %off = llvm.mul %tid, %c128 : i32\n",
                        "    %c32 = llvm.mlir.constant(32 : i32) : i32\n    %lane = llvm.urem %tid, %c32 : i32\n"
                        "    %off = llvm.mul %lane, %c128 : i32\n")
    again = ("    %bar2 = llvm.mlir.addressof @bar2 : !llvm.ptr<3>\n"
             "    llvm.cond_br %is0, ^again, ^end\n  ^again:\n"
             "    %st2 = nvvm.mbarrier.arrive.expect_tx %bar2, %bytes : !llvm.ptr<3>, i32 -> i64\n"
             "    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar2, box[%y, %x] : !llvm.ptr<7>, !llvm.ptr\n"
             "    llvm.br ^end\n  ^end:\n"
             "    nvvm.mbarrier.try_wait.parity %bar2, %zero, %zero : !llvm.ptr<3>, i32, i32\n")
    return text.replace("  ^done:\n", "  ^done:\n" + ("    nvvm.barrier\n" if barrier else "") + again)


def test_refill_over_another_warps_reads_needs_ordering() -> None:
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    args = [tm, SRC, np.zeros(2048, np.float16), 0, 0]
    for schedule in ("round-robin", "reverse", "random:5"):
        racy = run_kernel(refill_kernel(barrier=False), "tma_load", 64, args, schedule=schedule)
        assert FindingKind.SHARED_RACE in kinds(racy), [str(f.diagnostic) for f in racy.findings]
        ordered = run_kernel(refill_kernel(barrier=True), "tma_load", 64, args, schedule=schedule)
        assert not ordered.errors, [str(f.diagnostic) for f in ordered.findings]


# ---- the box geometry of 1-5 D maps against a direct loop --------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tmem_dialect.interpreter.tensor_map import box_geometry  # noqa: E402


@st.composite
def maps_and_coords(draw):
    rank = draw(st.integers(1, 5))
    dims = tuple(draw(st.integers(1, 9)) for _ in range(rank))
    box = (8 * draw(st.integers(1, 2)),) + tuple(draw(st.integers(1, 4)) for _ in range(rank - 1))
    pad = tuple(draw(st.integers(0, 2)) for _ in range(rank - 1))
    strides, step = [], dims[0] * 2
    for d in range(1, rank):
        step = -(-step // 16) * 16 + 16 * pad[d - 1]
        strides.append(step)
        step *= dims[d]
    coords = tuple(draw(st.integers(-3, dims[d] + 1)) for d in range(rank))
    return TensorMap(0, "f16", dims, box, tuple(strides)), coords


@settings(max_examples=60, deadline=None)
@given(maps_and_coords())
def test_box_geometry_matches_a_direct_loop(case) -> None:
    tm, coords = case
    offsets, inside = box_geometry(tm, np.array(coords))
    strides = (2, *tm.byte_strides)
    i = 0
    for index in np.ndindex(*reversed(tm.box)):  # outermost first: dimension 0 fastest
        element = [c + k for c, k in zip(coords, reversed(index))]
        assert inside[i] == all(0 <= e < d for e, d in zip(element, tm.dims))
        assert offsets[i] == sum(e * s for e, s in zip(element, strides))
        i += 1
    assert i == len(offsets)


def test_a_3d_box_lands_in_order() -> None:
    """A 3-D map (depth 2 of 32 x 32 boxes over a 4 x 40 x 48 f16 tensor): the 4096 bytes of the
    box are the two 32 x 32 planes one after the other (dimension 0 fastest)."""
    src = (np.arange(4 * 40 * 48) % 1999).astype(np.float16).reshape(4, 40, 48)
    text = load_kernel().replace("box[%x, %y]", "box[%x, %y, %y]")
    tm = TensorMap(buffer=1, dtype="f16", dims=(48, 40, 4), box=(32, 32, 2))
    res = run_kernel(text, "tma_load", 32, [tm, src, np.zeros(2048, np.float16), 8, 1])
    assert not res.errors, [str(f.diagnostic) for f in res.findings]
    assert (res.args[2].reshape(2, 32, 32) == src[1:3, 1:33, 8:40]).all()


def test_cta_group_2_completes_on_the_leaders_barrier() -> None:
    """.cta_group::2 multicast to both CTAs of the pair: both boxes' bytes complete on the leader
    CTA's barrier (armed for 8192 bytes); the peer neither arms nor waits, only keeps its shared
    memory alive (a cluster barrier before it exits, which the leader joins after its reads).
    Were the bytes counted in the peer's barrier instead, the leader's wait would never return."""
    text = multicast_kernel(0b11).replace("EXPECT", "8192")
    text = text.replace("(4096 : i32) : i32\n    %tid", "(8192 : i32) : i32\n    %tid", 1)
    text = text.replace("box[%x, %y] multicast_mask = %mask :", "box[%x, %y] multicast_mask = %mask group = cta_2 :")
    keep_alive = "    nvvm.cluster.arrive\n    nvvm.cluster.wait\n    llvm.return\n"
    text = text.replace("    nvvm.cluster.wait\n    llvm.cond_br %is0, ^issue, ^wait\n",
                        "    nvvm.cluster.wait\n    llvm.cond_br %leader, ^lead, ^exit\n  ^exit:\n" + keep_alive +
                        "  ^lead:\n    llvm.cond_br %is0, ^issue, ^wait\n")
    text = text.replace("  ^done:\n    llvm.return\n", "  ^done:\n" + keep_alive)
    assert text.count("group = cta_2") == 1 and "^exit" in text and "8192 : i32" in text
    assert text.count(keep_alive) == 2
    tm = TensorMap(buffer=1, dtype="f16", dims=(80, 96), box=(64, 32))
    res = run_kernel(text, "tma_load", 32, [tm, SRC, np.zeros(4096, np.float16), 8, 16], cta_pair=True)
    assert not res.errors, [str(f.diagnostic) for f in res.findings]
    assert (res.args[2].view(np.uint8)[:4096] == expected_tile(SRC, 8, 16, 64, 32, "none")).all()
    # without the peer's cluster barrier the copy writes the shared memory of a CTA that may
    # have exited
    early = text.replace(keep_alive, "    llvm.return\n")
    res = run_kernel(early, "tma_load", 32, [tm, SRC, np.zeros(4096, np.float16), 8, 16], cta_pair=True)
    assert res.kinds() == {FindingKind.PEER_EXITED}, [str(f.diagnostic) for f in res.findings]
