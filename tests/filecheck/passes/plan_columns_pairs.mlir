// tmem-plan-columns on a CTA pair (a cluster of 2 whose tcgen05 ops use cta_group::2): warp 0 of
// each CTA runs the same cta_group::2 alloc, relinquish and dealloc; a cluster barrier comes before
// the alloc (the kernel's own last one ahead of the first use, else one the pass writes at the
// top) and a fenced cluster barrier before the dealloc, after the last use (here the tile_load
// after the mbarrier wait that observes the mma's commit). A kernel whose buffers only tile ops
// touch says it is a pair with `tcgen05.cta_group = 2` (the pass drops the attribute: the
// allocation says it then).
// RUN: tmem-opt %s --split-input-file -p tmem-plan-columns | filecheck %s
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline 2>&1 | filecheck %s --check-prefix=CLEAN
// RUN: tmem-opt %s --split-input-file -p 'tmem-plan-columns{multi-allocation=true}' | filecheck %s --check-prefix=MULTI
// RUN: tmem-opt %s --split-input-file -p 'tmem-plan-columns{multi-allocation=true},tmem-assign-lanes,tmem-insert-waits,tmem-verify' 2>&1 | filecheck %s --check-prefix=CLEAN
// REQUIRES: ptxas, iree-opt
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline,convert-tcgen05-to-nvvm > %t.nvvm.mlir
// RUN: iree-opt --split-input-file %t.nvvm.mlir > /dev/null
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline -t ptx --ptxas-check | filecheck %s --check-prefix=PTX

// CLEAN-NOT: error
// CLEAN-NOT: warning

!acc = !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @pair_mma
// CHECK: tcgen05.fence_mbarrier_init
// CHECK: nvvm.cluster.arrive aligned
// CHECK-NEXT: nvvm.cluster.wait aligned
// CHECK-NEXT: %[[SLOT:.*]] = llvm.mlir.addressof @tmem_plan_slot
// CHECK-NEXT: scf.if %tmem_is_warp0 {
// CHECK-NEXT: tcgen05.alloc %[[SLOT]], 64 cta_group(2)
// CHECK-NEXT: tcgen05.relinquish_alloc_permit cta_group(2)
// CHECK-NEXT: }
// CHECK-NEXT: tcgen05.fence before_thread_sync
// CHECK-NEXT: nvvm.barrier
// CHECK-NEXT: tcgen05.fence after_thread_sync
// CHECK-NEXT: %tmem_base = llvm.load %[[SLOT]]
// CHECK-NOT: nvvm.cluster
// CHECK: tcgen05.mma f16 %tmem_base, {{.*}} cta_group(2)
// CHECK: tcgen05.mbarrier.wait_parity
// CHECK: tcgen05.tile_load
// CHECK-NEXT: tcgen05.wait load
// CHECK-NEXT: tcgen05.fence before_thread_sync
// CHECK-NEXT: nvvm.cluster.arrive aligned
// CHECK-NEXT: nvvm.cluster.wait aligned
// CHECK-NEXT: tcgen05.fence after_thread_sync
// CHECK-NEXT: scf.if %tmem_is_warp0 {
// CHECK-NEXT: tcgen05.dealloc %tmem_base, 64 cta_group(2)
// PTX: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// PTX: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned
// PTX: tcgen05.mma.cta_group::2.kind::f16
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX: tcgen05.dealloc.cta_group::2.sync.aligned.b32
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x f16>
func.func @pair_mma(%c: memref<16384xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c5_i32 = arith.constant 5 : i32
  %c64 = arith.constant 64 : index
  %both = arith.constant 3 : i16
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %is_leader = arith.cmpi eq, %rank, %c0_i32 : i32
  %acc = tcgen05.buffer : !acc
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
  %s_base = llvm.ptrtoint %s : !llvm.ptr<3> to i32
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %idesc = tcgen05.instr_desc f16 m 256 n 64 a f16 b f16 d f32
  %leader_warp0 = arith.andi %is_leader, %is_warp0 : i1
  scf.if %leader_warp0 {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      %desc = tcgen05.smem_desc %s_base lbo 16 sbo 1024 swizzle_128b
      %false = arith.constant false
      tcgen05.mma f16 %d, %desc, %desc, %idesc, %false cta_group(2) : i64
      tcgen05.commit %bar multicast %both cta_group(2) : !llvm.ptr<3>
    }
  }
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %tile = tcgen05.tile_load %acc [0, 0] [128, 64] : !acc -> vector<64xf32>
  tcgen05.wait load
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c64 : index
  vector.store %tile, %c[%first] : memref<16384xf32>, vector<64xf32>
  func.return
}

// -----

// No op of the kernel tells its cta_group (tile ops only): the attribute does, and without a
// cluster barrier of its own the pass writes one at the top, before the pair allocates.
!tile = !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @pair_tiles_marked
// CHECK-NOT: tcgen05.cta_group
// CHECK: %tmem_is_warp0 = arith.cmpi eq
// CHECK-NEXT: %[[SLOT:.*]] = llvm.mlir.addressof @tmem_plan_slot
// CHECK-NEXT: nvvm.cluster.arrive aligned
// CHECK-NEXT: nvvm.cluster.wait aligned
// CHECK-NEXT: scf.if %tmem_is_warp0 {
// CHECK-NEXT: tcgen05.alloc %[[SLOT]], 32 cta_group(2)
// CHECK-NEXT: tcgen05.relinquish_alloc_permit cta_group(2)
// CHECK: tcgen05.tile_store
// CHECK: tcgen05.tile_load
// CHECK-NEXT: tcgen05.wait load
// CHECK-NEXT: tcgen05.fence before_thread_sync
// CHECK-NEXT: nvvm.cluster.arrive aligned
// CHECK-NEXT: nvvm.cluster.wait aligned
// CHECK-NEXT: tcgen05.fence after_thread_sync
// CHECK-NEXT: scf.if %tmem_is_warp0 {
// CHECK-NEXT: tcgen05.dealloc %tmem_base, 32 cta_group(2)
func.func @pair_tiles_marked(%out: memref<4096xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cluster_dim = array<i32: 2>, tcgen05.cta_group = 2 : i32} {
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = tcgen05.buffer : !tile
  %v = vector.broadcast %tid : i32 to vector<32xi32>
  tcgen05.tile_store %v, %t [0, 0] [128, 32] : vector<32xi32>, !tile
  tcgen05.wait store
  %w = tcgen05.tile_load %t [0, 0] [128, 32] : !tile -> vector<32xi32>
  tcgen05.wait load
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c32 : index
  vector.store %w, %out[%first] : memref<4096xi32>, vector<32xi32>
  func.return
}

// -----

// multi-allocation: two stretches, two pair allocations. The second needs no cluster barrier of
// its own before it: the first's dealloc follows one. Only the last relinquishes.
// MULTI-LABEL: func.func @pair_two_stretches
// MULTI: nvvm.cluster.arrive aligned
// MULTI-NEXT: nvvm.cluster.wait aligned
// MULTI-NEXT: scf.if %tmem_is_warp0 {
// MULTI-NEXT: tcgen05.alloc %tmem_plan_slot, 64 cta_group(2)
// MULTI-NEXT: }
// MULTI: nvvm.cluster.arrive aligned
// MULTI-NEXT: nvvm.cluster.wait aligned
// MULTI-NEXT: tcgen05.fence after_thread_sync
// MULTI-NEXT: scf.if %tmem_is_warp0 {
// MULTI-NEXT: tcgen05.dealloc %tmem_base, 64 cta_group(2)
// MULTI-NEXT: }
// MULTI: %tmem_plan_slot_1 = llvm.mlir.addressof @tmem_plan_slot_1
// MULTI-NOT: nvvm.cluster
// MULTI-NEXT: scf.if %tmem_is_warp0 {
// MULTI-NEXT: tcgen05.alloc %tmem_plan_slot_1, 32 cta_group(2)
// MULTI-NEXT: tcgen05.relinquish_alloc_permit cta_group(2)
// MULTI: nvvm.cluster.arrive aligned
// MULTI-NEXT: nvvm.cluster.wait aligned
// MULTI-NEXT: tcgen05.fence after_thread_sync
// MULTI-NEXT: scf.if %tmem_is_warp0 {
// MULTI-NEXT: tcgen05.dealloc %tmem_base_1, 32 cta_group(2)
!big = !tcgen05.tmem<128x64xi32, S[(128, 64) : (1@TLane, 1@TCol)]>
!tile = !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
func.func @pair_two_stretches(%out: memref<4096xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cluster_dim = array<i32: 2>, tcgen05.cta_group = 2 : i32} {
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %a = tcgen05.buffer : !big
  %b = tcgen05.buffer : !tile
  %v = vector.broadcast %tid : i32 to vector<64xi32>
  tcgen05.tile_store %v, %a [0, 0] [128, 64] : vector<64xi32>, !big
  tcgen05.wait store
  %w = tcgen05.tile_load %a [0, 0] [128, 64] : !big -> vector<64xi32>
  tcgen05.wait load
  %w2 = vector.broadcast %tid : i32 to vector<32xi32>
  tcgen05.tile_store %w2, %b [0, 0] [128, 32] : vector<32xi32>, !tile
  tcgen05.wait store
  %x = tcgen05.tile_load %b [0, 0] [128, 32] : !tile -> vector<32xi32>
  tcgen05.wait load
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c32 : index
  vector.store %x, %out[%first] : memref<4096xi32>, vector<32xi32>
  func.return
}
