// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// Loop-indexed buffers (issue 9): stage indices such as i % 2 and (i + 1) & 1 are evaluated per
// iteration. Warp 0 writes stage s(i) before the loop's barrier, warp 4 reads it after; warp 0's
// write in iteration i + 1 runs concurrently with warp 4's read in iteration i. A correct double
// buffer is proven clean, an aliasing one is an error. The interpreter agrees (test_periodic).
// NVVM: error: nvvm.tcgen05.ld of warp 4 and nvvm.tcgen05.st of warp 0 touch the same TMEM cells with no wait and barrier between them
// NVVM-NOT: error
// NVVM-NOT: warning

// Stage i % 2: warp 0 fills stage i while warp 4 reads stage i - 1; the barrier of each
// iteration orders the rest. Proven clean.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @stage_rem() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c32 = arith.constant 32 : i32
  %c2i = arith.constant 2 : i32
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  %w4 = arith.cmpi eq, %w, %c4 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 64 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %lb to %ub step %st {
    %ii = arith.index_cast %i : index to i32
    %stage = arith.remui %ii, %c2i : i32
    %off = arith.muli %stage, %c32 : i32
    %a = arith.addi %t, %off : i32
    scf.if %w0 {
      %v = arith.constant dense<7> : vector<1xi32>
      tcgen05.st %v, %a shape_32x32b x1 : vector<1xi32>
      tcgen05.wait store
    }
    tcgen05.fence before_thread_sync
    nvvm.barrier
    tcgen05.fence after_thread_sync
    scf.if %w4 {
      %r = tcgen05.ld %a shape_32x32b x1 : vector<1xi32>
      tcgen05.wait load
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %t, 64
  }
  func.return
}

// -----

// Stage (i + 1) & 1: the same double buffer, shifted by one. Proven clean.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @stage_and() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c32 = arith.constant 32 : i32
  %c2i = arith.constant 2 : i32
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  %w4 = arith.cmpi eq, %w, %c4 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 64 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %lb to %ub step %st {
    %ii = arith.index_cast %i : index to i32
    %c1 = arith.constant 1 : i32
    %next = arith.addi %ii, %c1 : i32
    %stage = arith.andi %next, %c1 : i32
    %off = arith.muli %stage, %c32 : i32
    %a = arith.addi %t, %off : i32
    scf.if %w0 {
      %v = arith.constant dense<7> : vector<1xi32>
      tcgen05.st %v, %a shape_32x32b x1 : vector<1xi32>
      tcgen05.wait store
    }
    tcgen05.fence before_thread_sync
    nvvm.barrier
    tcgen05.fence after_thread_sync
    scf.if %w4 {
      %r = tcgen05.ld %a shape_32x32b x1 : vector<1xi32>
      tcgen05.wait load
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %t, 64
  }
  func.return
}

// -----

// Stage (2 * i) % 2 is always 0: warp 0 refills the stage warp 4 is reading.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @stage_aliasing() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c32 = arith.constant 32 : i32
  %c2i = arith.constant 2 : i32
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  %w4 = arith.cmpi eq, %w, %c4 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 64 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %lb to %ub step %st {
    %ii = arith.index_cast %i : index to i32
    %c2 = arith.constant 2 : i32
    %twice = arith.muli %ii, %c2 : i32
    %stage = arith.remui %twice, %c2i : i32
    %off = arith.muli %stage, %c32 : i32
    %a = arith.addi %t, %off : i32
    scf.if %w0 {
      %v = arith.constant dense<7> : vector<1xi32>
      // expected-note@+1 {{the tcgen05.st}}
      tcgen05.st %v, %a shape_32x32b x1 : vector<1xi32>
      tcgen05.wait store
    }
    tcgen05.fence before_thread_sync
    nvvm.barrier
    tcgen05.fence after_thread_sync
    scf.if %w4 {
      // expected-error@+1 {{tcgen05.ld of warp 4 and tcgen05.st of warp 0 touch the same TMEM cells with no wait and barrier between them}}
      %r = tcgen05.ld %a shape_32x32b x1 : vector<1xi32>
      tcgen05.wait load
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %t, 64
  }
  func.return
}
