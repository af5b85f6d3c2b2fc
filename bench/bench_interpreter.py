"""Interpreter throughput: TMEM cells moved per second, and interpreted warp-ops per second.

1. A warpgroup round-trips its whole 128 x 512 TMEM with tcgen05.st/ld 32x32b.x128 (4 chunks
   of 128 columns per warp), `ROUNDS` times in a loop: cells/s = cells moved (st + ld) / run time.
   Target: >= 20 M cells/s.
2. Scalar control code: a loop of integer arithmetic, compares and selects in 4 warps:
   warp-ops/s = interpreted ops (each executed once per warp) / run time. Target: >= 20 k/s.

Run: python bench/bench_interpreter.py. Prints the measured figures; asserts nothing.
"""

from __future__ import annotations

import time

import numpy as np

from tmem_dialect.dialects import make_context
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module

ROUNDS = 8

ROUND_TRIP = f"""
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
func.func @round_trip(%out: memref<65536xi32>) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>}} {{
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %c128_i32 = arith.constant 128 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %rounds = arith.constant {ROUNDS} : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is_warp0 {{
    tcgen05.alloc %slot, 512 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }}
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %t = arith.index_cast %tid : i32 to index
  %row = arith.muli %t, %c512 : index
  %seed = vector.broadcast %tid : i32 to vector<128xi32>
  scf.for %r = %c0 to %rounds step %c1 {{
    scf.for %chunk = %c0 to %c4 step %c1 {{
      %ci = arith.index_cast %chunk : index to i32
      %col = arith.muli %ci, %c128_i32 : i32
      %addr = arith.addi %taddr, %col : i32
      tcgen05.st %seed, %addr shape_32x32b x128 : vector<128xi32>
    }}
    tcgen05.wait store
    scf.for %chunk = %c0 to %c4 step %c1 {{
      %ci = arith.index_cast %chunk : index to i32
      %col = arith.muli %ci, %c128_i32 : i32
      %addr = arith.addi %taddr, %col : i32
      %v = tcgen05.ld %addr shape_32x32b x128 : vector<128xi32>
      %off = arith.muli %chunk, %c128 : index
      %at = arith.addi %row, %off : index
      vector.store %v, %out[%at] : memref<65536xi32>, vector<128xi32>
    }}
    tcgen05.wait load
  }}
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {{
    tcgen05.dealloc %base, 512
  }}
  func.return
}}
"""

SCALAR = """
func.func @scalar(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2000 : index
  %c1_i32 = arith.constant 1 : i32
  %c7_i32 = arith.constant 7 : i32
  %c13_i32 = arith.constant 13 : i32
  %c1000_i32 = arith.constant 1000 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %h = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %tid) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %a = arith.muli %acc, %c13_i32 : i32
    %b = arith.addi %a, %ii : i32
    %c = arith.shrui %b, %c7_i32 : i32
    %d = arith.xori %b, %c : i32
    %big = arith.cmpi sgt, %d, %c1000_i32 : i32
    %e = arith.subi %d, %c1000_i32 : i32
    %f = arith.select %big, %e, %d : i32
    %g = arith.addi %f, %c1_i32 : i32
    scf.yield %g : i32
  }
  %t = arith.index_cast %tid : i32 to index
  memref.store %h, %out[%t] : memref<128xi32>
  func.return
}
"""


def _best_of(n: int, run):
    """(best wall seconds, best CPU seconds of this process, last result) over n runs.

    CPU time counts every warp thread of the run and is what the interpreter itself costs; wall
    time also counts whatever else the machine is doing.
    """
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(n):
        w0, c0 = time.perf_counter(), time.process_time()
        result = run()
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu, result


def _round_trip(rounds: int):
    text = ROUND_TRIP.replace(f"arith.constant {ROUNDS} : index", f"arith.constant {rounds} : index")
    module = parse_module(make_context(), text, "round_trip")
    return _best_of(5, lambda: run_kernel(module, "round_trip", args=[np.zeros(65536, np.int32)]))


def bench_round_trip() -> float:
    wall, cpu, result = _round_trip(ROUNDS)
    assert result.diagnostics == [], result.render()
    assert (result.args[0].reshape(128, 512) == np.arange(128)[:, None]).all()
    cells = result.cells_moved
    print(f"TMEM round trip (warpgroup, 128x512, 32x32b.x128, {ROUNDS} rounds, whole run incl. setup): "
          f"{cells} cells in {wall * 1e3:.1f} ms wall / {cpu * 1e3:.1f} ms CPU = "
          f"{cells / wall / 1e6:.1f} / {cells / cpu / 1e6:.1f} M cells/s (target >= 20)")
    wall0, cpu0, _ = _round_trip(0)
    wall4, cpu4, result4 = _round_trip(4 * ROUNDS)
    moved = result4.cells_moved
    print(f"  {4 * ROUNDS} rounds: {moved} cells in {wall4 * 1e3:.1f} ms wall / {cpu4 * 1e3:.1f} ms CPU = "
          f"{moved / wall4 / 1e6:.1f} / {moved / cpu4 / 1e6:.1f} M cells/s; without the setup of a "
          f"0-round run ({wall0 * 1e3:.1f} / {cpu0 * 1e3:.1f} ms): "
          f"{moved / max(wall4 - wall0, 1e-9) / 1e6:.1f} / {moved / max(cpu4 - cpu0, 1e-9) / 1e6:.1f} M cells/s")
    return cells / cpu


def bench_scalar() -> float:
    module = parse_module(make_context(), SCALAR, "scalar")
    wall, cpu, result = _best_of(3, lambda: run_kernel(module, "scalar", args=[np.zeros(128, np.int32)]))
    assert result.diagnostics == [], result.render()
    ops = result.warp_ops
    print(f"scalar control code (4 warps, 2000-iteration loop): {ops} warp-ops in {wall * 1e3:.1f} ms "
          f"wall / {cpu * 1e3:.1f} ms CPU = {ops / wall / 1e3:.1f} / {ops / cpu / 1e3:.1f} k warp-ops/s "
          "(target >= 20)")
    return ops / cpu


def main() -> None:
    cells = bench_round_trip()
    ops = bench_scalar()
    print(f"ratio to target (CPU time): cells {cells / 20e6:.2f}x, warp-ops {ops / 20e3:.2f}x")


if __name__ == "__main__":
    main()
