// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// mbarrier arrivals across a cluster (passes/analysis/cluster_arrivals.py): an arrive through
// `mapa %bar, 0`, run by every CTA, arrives on CTA 0's mbarrier (PTX ISA "mapa", "mbarrier.arrive"
// on a .shared::cluster address). The leader's wait sees the store of warp 4 of both CTAs
// released to it (64 arrivals, its init count); arriving on the wrong CTA's mbarrier leaves the
// leader's wait without arrivals, or short of them (the interpreter reports the same deadlocks:
// tests/test_warp_specialized_gemm_pair.py). The handoff the wait was for is then unproven.
// NVVM: error: this wait never completes in CTA 0 of the cluster: of the 64 arrivals
// NVVM: error: nvvm.tcgen05.ld of warp 0 and nvvm.tcgen05.st of warp 4 touch the same TMEM cells
// NVVM: error: this wait never completes in CTA 0 of the cluster: no arrive or commit of any CTA arrives on CTA 0's mbarrier
// NVVM: error: nvvm.tcgen05.ld of warp 0 and nvvm.tcgen05.st of warp 4 touch the same TMEM cells
// NVVM: error: this mbarrier.init reaches a cluster barrier on some path without fence.mbarrier_init.release.cluster after it
// NVVM-NOT: error

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @ready() {addr_space = 3 : i32, alignment = 8 : i64} : i64

// The legal twin: every CTA's warp 4 releases to the leader.
func.func @remote_release(%out: memref<160xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c64 = arith.constant 64 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %ready = llvm.mlir.addressof @ready : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
  %is_warp4 = arith.cmpi eq, %warp, %c4 : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %leader = arith.cmpi eq, %rank, %c0 : i32
  %is_t0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is_t0 {
    tcgen05.mbarrier.init %ready, %c64 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %idx = arith.index_cast %tid : i32 to index
  scf.if %is_warp4 {
    %value = vector.broadcast %tid : i32 to vector<1xi32>
    tcgen05.st %value, %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
    tcgen05.fence before_thread_sync
    // every CTA's warp 4 arrives on the leader's mbarrier
    %leader_ready = nvvm.mapa %ready, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.mbarrier.arrive %leader_ready : !llvm.ptr<7>
  }
  %leader_warp0 = arith.andi %is_warp0, %leader : i1
  scf.if %leader_warp0 {
    tcgen05.mbarrier.wait_parity %ready, %c0 : !llvm.ptr<3>
    tcgen05.fence after_thread_sync
    %back = tcgen05.ld %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
    %elem = vector.extract %back[0] : i32 from vector<1xi32>
    memref.store %elem, %out[%idx] : memref<160xi32>
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @ready() {addr_space = 3 : i32, alignment = 8 : i64} : i64

func.func @release_to_own_cta(%out: memref<160xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c64 = arith.constant 64 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %ready = llvm.mlir.addressof @ready : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
  %is_warp4 = arith.cmpi eq, %warp, %c4 : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %leader = arith.cmpi eq, %rank, %c0 : i32
  %is_t0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is_t0 {
    tcgen05.mbarrier.init %ready, %c64 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %idx = arith.index_cast %tid : i32 to index
  scf.if %is_warp4 {
    %value = vector.broadcast %tid : i32 to vector<1xi32>
    // expected-note@+1 {{the tcgen05.st}}
    tcgen05.st %value, %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
    tcgen05.fence before_thread_sync
    // each CTA's warp 4 arrives on its own mbarrier: 32 of the leader's 64
    %leader_ready = nvvm.mapa %ready, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    // expected-note@+1 {{nvvm.mbarrier.arrive arrives on its own CTA's mbarrier}}
    nvvm.mbarrier.arrive %leader_ready : !llvm.ptr<7>
  }
  %leader_warp0 = arith.andi %is_warp0, %leader : i1
  scf.if %leader_warp0 {
    // expected-error@+1 {{this wait never completes in CTA 0 of the cluster: of the 64 arrivals its mbarrier.init asks for per phase, the cluster's releases give CTA 0 only 32}}
    tcgen05.mbarrier.wait_parity %ready, %c0 : !llvm.ptr<3>
    tcgen05.fence after_thread_sync
    // expected-error@+1 {{tcgen05.ld of warp 0 and tcgen05.st of warp 4 touch the same TMEM cells with no wait and barrier between them}}
    %back = tcgen05.ld %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
    %elem = vector.extract %back[0] : i32 from vector<1xi32>
    memref.store %elem, %out[%idx] : memref<160xi32>
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @ready() {addr_space = 3 : i32, alignment = 8 : i64} : i64

func.func @release_to_the_peer(%out: memref<160xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c64 = arith.constant 64 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %ready = llvm.mlir.addressof @ready : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
  %is_warp4 = arith.cmpi eq, %warp, %c4 : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %leader = arith.cmpi eq, %rank, %c0 : i32
  %is_t0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is_t0 {
    tcgen05.mbarrier.init %ready, %c64 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %idx = arith.index_cast %tid : i32 to index
  scf.if %is_warp4 {
    %value = vector.broadcast %tid : i32 to vector<1xi32>
    // expected-note@+1 {{the tcgen05.st}}
    tcgen05.st %value, %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
    tcgen05.fence before_thread_sync
    // both CTAs' warp 4 arrive on CTA 1's mbarrier: none on the leader's
    %c1 = arith.constant 1 : i32
    %leader_ready = nvvm.mapa %ready, %c1 : !llvm.ptr<3> -> !llvm.ptr<7>
    // expected-note@+1 {{nvvm.mbarrier.arrive arrives only on the mbarrier of CTA 1}}
    nvvm.mbarrier.arrive %leader_ready : !llvm.ptr<7>
  }
  %leader_warp0 = arith.andi %is_warp0, %leader : i1
  scf.if %leader_warp0 {
    // expected-error@+1 {{this wait never completes in CTA 0 of the cluster: no arrive or commit of any CTA arrives on CTA 0's mbarrier}}
    tcgen05.mbarrier.wait_parity %ready, %c0 : !llvm.ptr<3>
    tcgen05.fence after_thread_sync
    // expected-error@+1 {{tcgen05.ld of warp 0 and tcgen05.st of warp 4 touch the same TMEM cells with no wait and barrier between them}}
    %back = tcgen05.ld %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
    %elem = vector.extract %back[0] : i32 from vector<1xi32>
    memref.store %elem, %out[%idx] : memref<160xi32>
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @ready() {addr_space = 3 : i32, alignment = 8 : i64} : i64

// The init not fenced for the cluster: the peer's remote arrive may find it uninitialized.
func.func @init_not_fenced(%out: memref<160xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c64 = arith.constant 64 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %ready = llvm.mlir.addressof @ready : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0 : i32
  %is_warp4 = arith.cmpi eq, %warp, %c4 : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %leader = arith.cmpi eq, %rank, %c0 : i32
  %is_t0 = arith.cmpi eq, %tid, %c0 : i32
  scf.if %is_t0 {
    // expected-error@+1 {{this mbarrier.init reaches a cluster barrier on some path without fence.mbarrier_init.release.cluster after it}}
    tcgen05.mbarrier.init %ready, %c64 : !llvm.ptr<3>
  }
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %idx = arith.index_cast %tid : i32 to index
  scf.if %is_warp4 {
    %value = vector.broadcast %tid : i32 to vector<1xi32>
    tcgen05.st %value, %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
    tcgen05.fence before_thread_sync
    // every CTA's warp 4 arrives on the leader's mbarrier
    %leader_ready = nvvm.mapa %ready, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
    // expected-note@+1 {{the nvvm.mbarrier.arrive from another CTA}}
    nvvm.mbarrier.arrive %leader_ready : !llvm.ptr<7>
  }
  %leader_warp0 = arith.andi %is_warp0, %leader : i1
  scf.if %leader_warp0 {
    tcgen05.mbarrier.wait_parity %ready, %c0 : !llvm.ptr<3>
    tcgen05.fence after_thread_sync
    %back = tcgen05.ld %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
    %elem = vector.extract %back[0] : i32 from vector<1xi32>
    memref.store %elem, %out[%idx] : memref<160xi32>
  }
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %base, 32
  }
  func.return
}
