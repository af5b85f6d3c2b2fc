// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM
// NVVM: error: nvvm.tcgen05.alloc is warp-collective (.sync.aligned) but runs under a condition that splits warp 0
// NVVM: error: nvvm.tcgen05.relinquish_alloc_permit is warp-collective
// NVVM-NOT: error

// elect.sync is true in exactly one thread of each warp: a warp-collective (.sync.aligned) op
// under it runs in one thread only (the interpreter reports the same; the twin: the warp
// allocates, one elected thread initializes an mbarrier).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    %e = tcgen05.elect_sync
    // expected-note@+2 {{this condition differs between threads of warp 0}}
    // expected-note@+1 {{this condition differs between threads of warp 0}}
    scf.if %e {
      // expected-error@+1 {{tcgen05.alloc is warp-collective (.sync.aligned) but runs under a condition that splits warp 0: it depends on the lane, not only on the warp index}}
      tcgen05.alloc %s, 32 : !llvm.ptr<3>
      // expected-error@+1 {{tcgen05.relinquish_alloc_permit is warp-collective (.sync.aligned) but runs under a condition that splits warp 0}}
      tcgen05.relinquish_alloc_permit
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %w0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %c1 = arith.constant 1 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
    %e = tcgen05.elect_sync
    scf.if %e {
      // one thread initializes the mbarrier: not warp-collective
      tcgen05.mbarrier.init %bar, %c1 : !llvm.ptr<3>
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %w0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 32
  }
  func.return
}
