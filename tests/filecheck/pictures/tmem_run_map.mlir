// REQUIRES: matplotlib
// RUN: tmem-run %s --map %t.svg
// RUN: filecheck %s --input-file %t.svg --check-prefix=AFTER
// RUN: tmem-run %s --map %t.at.svg --map-at %s:31@1
// RUN: filecheck %s --input-file %t.at.svg --check-prefix=FIRST
// RUN: not tmem-run %s --map %t.bad.svg --map-at 999 2>&1 | filecheck %s --check-prefix=NOOP
// RUN: not tmem-run %s --map %t.pdf 2>&1 | filecheck %s --check-prefix=FORMAT

// Each warp stores 4 columns of its lane quarter, waits, and warp 0 frees the 64 columns.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %v = vector.broadcast %tid : i32 to vector<4xi32>
  tcgen05.st %v, %taddr shape_32x32b x4 : vector<4xi32>
  tcgen05.wait store
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 64
  }
  func.return
}

// AFTER-NOT: finding:
// AFTER-DAG: <g id="cells:warp=0:lanes=0-31:cols=0-3">
// AFTER-DAG: <g id="cells:warp=1:lanes=32-63:cols=0-3">
// AFTER-DAG: <g id="cells:warp=2:lanes=64-95:cols=0-3">
// AFTER-DAG: <g id="cells:warp=3:lanes=96-127:cols=0-3">
// AFTER-DAG: <g id="alloc:cols=0-63:ncols=64:live=0">
// AFTER-DAG: tcgen05.alloc 64 cols @0 (warp 0, line 23, freed)
// AFTER-DAG: warp 3 wrote 128 cells
// AFTER-DAG: lanes 96-127
// AFTER-DAG: TMEM after the run

// FIRST: <g id="cells:warp=[[W:[0-3]]]:lanes={{[0-9]+}}-{{[0-9]+}}:cols=0-3">
// FIRST-NOT: <g id="cells:
// FIRST-DAG: alloc:cols=0-63:ncols=64:live=1
// FIRST-DAG: warp [[W]] wrote 128 cells
// FIRST-DAG: after tcgen05.st at {{.*}}tmem_run_map.mlir:31:3 (execution 1, by warp [[W]])

// NOOP: tmem-run: error: cannot write the TMEM map '{{.*}}.bad.svg': --map-at '999': no op at line 999 (ops with a TMEM effect are at lines 23, 25, 31, 32, 33, 34, 35, 37)

// FORMAT: tmem-run: error: cannot tell the picture format of '{{.*}}.pdf': name it .svg or .png
