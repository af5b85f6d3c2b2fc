// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// A wait whose mbarrier phase can never complete (passes/analysis/cluster_arrivals.py): nothing
// arrives on the mbarrier, or fewer threads per phase than its init count. tmem-run reports the
// same kernels as deadlocks (`0 of 32 arrivals`, `32 of 64 arrivals`).
// NVVM: error: this wait never completes: no arrive or commit arrives on its mbarrier
// NVVM: error: this wait never completes: of the 64 arrivals its mbarrier.init asks for per phase, the releases give only 32
// NVVM-NOT: error

llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64

// The legal kernel: warp 1 arrives (32 threads, the init count), warp 0 waits for phase 0.
func.func @starved() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %c32 = arith.constant 32 : i32
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %is_t0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is_t0 {
    tcgen05.mbarrier.init %bar, %c32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %is_warp1 = arith.cmpi eq, %warp, %c1 : i32
  scf.if %is_warp1 {
    %token = tcgen05.mbarrier.arrive %bar : !llvm.ptr<3>
  }
  %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
  scf.if %is_warp0 {
    tcgen05.mbarrier.wait_parity %bar, %c0 : !llvm.ptr<3>
  }
  func.return
}

// -----

llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64

// No arrive at all: the wait for phase 0 never completes.
func.func @no_arrive() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %c32 = arith.constant 32 : i32
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %is_t0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is_t0 {
    tcgen05.mbarrier.init %bar, %c32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %is_warp1 = arith.cmpi eq, %warp, %c1 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
  scf.if %is_warp0 {
    // expected-error@+1 {{this wait never completes: no arrive or commit arrives on its mbarrier}}
    tcgen05.mbarrier.wait_parity %bar, %c0 : !llvm.ptr<3>
  }
  func.return
}

// -----

llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64

// An init count of 64 with one warp arriving: 32 arrivals per phase.
func.func @short_count() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %is_t0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is_t0 {
    tcgen05.mbarrier.init %bar, %c64 : !llvm.ptr<3>
  }
  nvvm.barrier
  %is_warp1 = arith.cmpi eq, %warp, %c1 : i32
  scf.if %is_warp1 {
    %token = tcgen05.mbarrier.arrive %bar : !llvm.ptr<3>
  }
  %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
  scf.if %is_warp0 {
    // expected-error@+1 {{this wait never completes: of the 64 arrivals its mbarrier.init asks for per phase, the releases give only 32}}
    tcgen05.mbarrier.wait_parity %bar, %c0 : !llvm.ptr<3>
  }
  func.return
}
