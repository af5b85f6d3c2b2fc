// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: tmem-opt %s --split-input-file -p tmem-insert-waits 2>&1 | filecheck %s

// One barrier reached by two ops (issue 9): warp 0 allocates and syncs in one branch of an if,
// the other warps sync in the other branch. The warps reaching either op meet at one barrier
// (same id, exclusive paths), so the allocation is published to every warp.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @barrier_in_branches() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %warp = arith.divui %tid, %c32 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
    tcgen05.fence before_thread_sync
    nvvm.barrier
  } else {
    nvvm.barrier
  }
  tcgen05.fence after_thread_sync
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.remui %warp, %c4 : i32
  %l = arith.muli %q, %c32 : i32
  %lb = arith.shli %l, %c16 : i32
  %t = arith.addi %a, %lb : i32
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %w0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %a, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Twin: the other branch syncs on barrier 1, which warp 0 never reaches: the two groups never
// meet, and warps 1-3 read the slot before the allocation is published to them.
func.func @barrier_ids_differ() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %warp = arith.divui %tid, %c32 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
    tcgen05.fence before_thread_sync
    // expected-warning@+1 {{warps 1, 2, 3 never reach this barrier}}
    nvvm.barrier
  } else {
    %one = arith.constant 1 : i32
    // expected-warning@+1 {{warp 0 never reaches this barrier}}
    nvvm.barrier id = %one
  }
  tcgen05.fence after_thread_sync
  // expected-error@+1 {{reads the TMEM address slot before any tcgen05.alloc wrote it}}
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.remui %warp, %c4 : i32
  %l = arith.muli %q, %c32 : i32
  %lb = arith.shli %l, %c16 : i32
  %t = arith.addi %a, %lb : i32
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %w0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %a, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The fence::before_thread_sync that warp 0's allocation needs goes before its own barrier op,
// in its branch (tmem-insert-waits puts it there).
// CHECK-LABEL: func.func @branch_fence_missing
// CHECK: tcgen05.alloc
// CHECK-NEXT: tcgen05.relinquish_alloc_permit
// CHECK-NEXT: tcgen05.fence before_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT: nvvm.barrier
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.barrier
func.func @branch_fence_missing() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %warp = arith.divui %tid, %c32 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  scf.if %w0 {
    // expected-note@+1 {{tcgen05.alloc is ordered by the barrier}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
    // expected-warning@+1 {{this barrier orders TMEM work between warps but has no tcgen05.fence::before_thread_sync before it}}
    nvvm.barrier
  } else {
    nvvm.barrier
  }
  tcgen05.fence after_thread_sync
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.remui %warp, %c4 : i32
  %l = arith.muli %q, %c32 : i32
  %lb = arith.shli %l, %c16 : i32
  %t = arith.addi %a, %lb : i32
  // expected-note@+1 {{tcgen05.ld in another warp runs after it}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %w0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %a, 32
  }
  func.return
}
