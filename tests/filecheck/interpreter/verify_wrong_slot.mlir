// RUN: tmem-run %s --arg i32:128 --verify-diagnostics
// RUN: sed -e 's/llvm.load %%other/llvm.load %%slot/' %s | tmem-run - --arg i32:128 --json | filecheck %s --check-prefix=TWIN

// The kernel reads the TMEM address from the wrong shared slot. Nothing wrote @other: shared
// memory starts undefined (a model that reads 0 would take it for the first allocation's base
// and pass the kernel). The twin reads @slot and runs clean.
// TWIN: "errors": []

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @other() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @k(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %other = llvm.mlir.addressof @other : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  // expected-error@+1 {{reads @other (byte 0), which nothing wrote: shared memory starts undefined}}
  %base = llvm.load %other : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %v = vector.broadcast %tid : i32 to vector<1xi32>
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}
