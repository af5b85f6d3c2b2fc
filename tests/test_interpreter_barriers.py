"""Named barriers order only the warps that take part (bar.sync id, count; bar.arrive), and cf
branches run with per-lane divergence: buggy kernels and legal twins, as written (tcgen05 dialect)
and lowered to upstream NVVM."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest

from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.interpreter.validation import apply_pipeline
from tmem_dialect.ir import parse_module

LEVELS = ["tcgen05", "nvvm"]
SCHEDULES = ["round-robin", "reverse", "random:5"]


def kernel(body: str, threads: int = 256) -> str:
    return f"""
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
func.func @k(%out: memref<1024xi32>) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: {threads}, 1, 1>}} {{
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %c64_i32 = arith.constant 64 : i32
  %c6_i32 = arith.constant 6 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.index_cast %tid : i32 to index
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_warp4 = arith.cmpi eq, %warp, %c4_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %v = vector.broadcast %tid : i32 to vector<1xi32>
  scf.if %is_warp0 {{
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }}
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %taddr = arith.addi %base, %lane_base : i32
{body}
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {{
    tcgen05.dealloc %base, 32
  }}
  func.return
}}
"""


def warp(n: int, body: str) -> str:
    return f"""
  %on{n} = arith.cmpi eq, %warp, %c{n}_i32 : i32
  scf.if %on{n} {{{body}
  }}"""


PRODUCE = """
    tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
    tcgen05.fence before_thread_sync"""
CONSUME = """
    tcgen05.fence after_thread_sync
    %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
    %e = vector.extract %r[0] : i32 from vector<1xi32>
    memref.store %e, %out[%t] : memref<1024xi32>"""
SYNC_1 = "\n    nvvm.barrier id = %c1_i32 number_of_threads = %c64_i32"
SYNC_2 = "\n    nvvm.barrier id = %c2_i32 number_of_threads = %c64_i32"
ARRIVE_1 = "\n    nvvm.barrier.arrive id = %c1_i32 number_of_threads = %c64_i32"

# Warp 0 hands column 0 of lanes 0..31 to warp 4 (the same lane quarter).
HANDOFF_SCOPED = warp(0, PRODUCE + SYNC_1) + warp(4, SYNC_1 + CONSUME)
HANDOFF_ARRIVE = warp(0, PRODUCE + ARRIVE_1) + warp(4, SYNC_1 + CONSUME)
# Barrier 1 pairs warp 0 with warp 1, barrier 2 warp 4 with warp 5: warp 4 is not ordered.
HANDOFF_OTHER_BARRIER = warp(0, PRODUCE + SYNC_1) + warp(1, SYNC_1) + warp(4, SYNC_2 + CONSUME) + warp(5, SYNC_2)
# The consumer only arrives: it does not wait for the producer.
CONSUMER_ARRIVES = warp(0, PRODUCE + SYNC_1) + warp(4, ARRIVE_1 + CONSUME)


def _module(text: str, level: str):
    module = parse_module(make_context(), text)
    return module if level == "tcgen05" else apply_pipeline(module, "convert-tcgen05-to-nvvm")


def _run(body: str, level: str = "tcgen05", **options):
    return run_kernel(_module(kernel(body), level), args=[np.zeros(1024, np.int32)], **options)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("legal", [HANDOFF_SCOPED, HANDOFF_ARRIVE], ids=["bar.sync 1, 64", "bar.arrive then bar.sync"])
def test_named_barrier_orders_its_participants(legal: str, level: str) -> None:
    result = _run(legal, level)
    assert result.diagnostics == [], result.render()
    # warp 4 read what warp 0 stored: thread 128 + i reads lane i, which thread i wrote
    assert (result.args[0][128:160] == np.arange(32)).all()
    assert not result.args[0][:128].any() and not result.args[0][160:].any()


@pytest.mark.parametrize("level", LEVELS)
def test_handoff_through_a_barrier_without_the_consumer(level: str) -> None:
    result = _run(HANDOFF_OTHER_BARRIER, level)
    assert FindingKind.BARRIER_SCOPE in result.kinds(), result.render()
    assert FindingKind.INTERNAL not in result.kinds(), result.render()
    d = next(d for d in result.errors if "barrier 1" in d.message)
    assert "which only warps 0, 1 take part in, not warp 4" in d.message, d.message
    assert any(n.message == "barrier 1 of warp 0" for n in d.notes)


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_barrier_scope_does_not_depend_on_the_schedule(schedule: str) -> None:
    assert FindingKind.BARRIER_SCOPE in _run(HANDOFF_OTHER_BARRIER, schedule=schedule).kinds()
    assert _run(HANDOFF_SCOPED, schedule=schedule).diagnostics == []
    assert _run(HANDOFF_ARRIVE, schedule=schedule).diagnostics == []


@pytest.mark.parametrize("level", LEVELS)
def test_a_consumer_that_only_arrives_is_not_ordered(level: str) -> None:
    result = _run(CONSUMER_ARRIVES, level)
    assert FindingKind.HANDOFF in result.kinds(), result.render()


SHFL_KERNEL = """
llvm.func @k(%p: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>} {
  %m = llvm.mlir.constant(-1 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c31 = llvm.mlir.constant(31 : i32) : i32
  %c8191 = llvm.mlir.constant(7199 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = llvm.lshr %tid, %c5 : i32
  %u = nvvm.shfl.sync idx %m, %w, %c0, %c31 : i32 -> i32
  %x = nvvm.shfl.sync bfly %m, %tid, %c1, %c31 : i32 -> i32
  %up = nvvm.shfl.sync up %m, %tid, %c3, %c0 : i32 -> i32
  %seg = nvvm.shfl.sync idx %m, %tid, %c1, %c8191 : i32 -> i32
  %f = llvm.bitcast %tid : i32 to f32
  %g = nvvm.shfl.sync down %m, %f, %c1, %c31 : f32 -> f32
  %h = llvm.bitcast %g : f32 to i32
  %i = llvm.sext %tid : i32 to i64
  %q0 = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  llvm.store %u, %q0 : i32, !llvm.ptr<1>
  %q1 = llvm.getelementptr %q0[64] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %x, %q1 : i32, !llvm.ptr<1>
  %q2 = llvm.getelementptr %q0[128] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %up, %q2 : i32, !llvm.ptr<1>
  %q3 = llvm.getelementptr %q0[192] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %seg, %q3 : i32, !llvm.ptr<1>
  %q4 = llvm.getelementptr %q0[256] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %h, %q4 : i32, !llvm.ptr<1>
  llvm.return
}
"""


def _reference_shuffle(mode: str, values: np.ndarray, b: int, c: int) -> np.ndarray:
    """The PTX ISA's shfl.sync pseudocode, one lane at a time."""
    out = []
    for lane in range(32):
        cval, segmask = c & 31, (c >> 8) & 31
        max_lane = (lane & segmask) | (cval & ~segmask)
        min_lane = lane & segmask
        j, ok = {
            "up": (lane - b, lane - b >= max_lane),
            "down": (lane + b, lane + b <= max_lane),
            "bfly": (lane ^ b, (lane ^ b) <= max_lane),
            "idx": (min_lane | (b & ~segmask), (min_lane | (b & ~segmask)) <= max_lane),
        }[mode]
        out.append(values[j if ok else lane])
    return np.array(out)


def test_shfl_sync_follows_the_isa_pseudocode() -> None:
    result = run_kernel(SHFL_KERNEL, args=[np.zeros(320, np.int32)])
    assert result.diagnostics == [], result.render()
    out = result.args[0].reshape(5, 2, 32)
    tid = np.arange(64).reshape(2, 32)
    for w in range(2):
        assert (out[0, w] == w).all()  # idx from lane 0: the warp index, made uniform
        assert (out[1, w] == _reference_shuffle("bfly", tid[w], 1, 31)).all()
        assert (out[2, w] == _reference_shuffle("up", tid[w], 3, 0)).all()
        assert (out[3, w] == _reference_shuffle("idx", tid[w], 1, 7199)).all()  # segments of 4 lanes
        assert (out[4, w] == _reference_shuffle("down", tid[w], 1, 31)).all()
    assert (out[3, 0][:8] == [1, 1, 1, 1, 5, 5, 5, 5]).all()


@pytest.mark.skipif(not shutil.which("ptxas"), reason="ptxas is not on PATH")
def test_shfl_sync_and_bar_arrive_assemble() -> None:
    text = SHFL_KERNEL.replace("  llvm.return\n}", "  %c64 = llvm.mlir.constant(64 : i32) : i32\n"
                               "  nvvm.barrier.arrive id = %c1 number_of_threads = %c64\n"
                               "  nvvm.barrier id = %c1 number_of_threads = %c64\n"
                               "  nvvm.cluster.arrive.relaxed aligned\n  nvvm.cluster.arrive\n"
                               "  nvvm.cluster.wait aligned\n  llvm.return\n}")
    proc = subprocess.run([sys.executable, "-m", "tmem_dialect.tools.opt", "-", "-t", "ptx", "--ptxas-check"],
                          input=text, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for line in ("shfl.sync.idx.b32", "shfl.sync.up.b32", "bar.arrive 1, 64;", "bar.sync 1, 64;",
                 "barrier.cluster.arrive.relaxed.aligned;", "barrier.cluster.arrive;", "barrier.cluster.wait.aligned;"):
        assert line in proc.stdout


CF_KERNEL = """
func.func @k(%out: memref<64xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c16 = arith.constant 16 : i32
  %c100 = arith.constant 100 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %lane = nvvm.read.ptx.sreg.laneid : i32
  %low = arith.cmpi ult, %lane, %c16 : i32
  cf.cond_br %low, ^low(%tid : i32), ^high
^low(%a: i32):
  %x = arith.addi %a, %c100 : i32
  cf.br ^join(%x : i32)
^high:
  %y = arith.muli %tid, %c16 : i32
  cf.br ^join(%y : i32)
^join(%r: i32):
  %t = arith.index_cast %tid : i32 to index
  memref.store %r, %out[%t] : memref<64xi32>
  func.return
}
"""


def test_cf_branches_diverge_per_lane() -> None:
    result = run_kernel(CF_KERNEL, args=[np.zeros(64, np.int32)])
    assert result.diagnostics == [], result.render()
    tid = np.arange(64)
    assert (result.args[0] == np.where(tid % 32 < 16, tid + 100, tid * 16)).all()
