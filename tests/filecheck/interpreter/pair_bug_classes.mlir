// The two CTA-pair bug classes of issue 11 on the pair GEMM tile example allocated by hand
// (tests/data/gemm_pair_tile_hand.mlir), at both levels (the legal twin is that file itself:
// tests/test_gemm_pair_tile.py runs it, and the example, clean at both levels).
//
// 1. A cluster barrier missing before the pair alloc: the first cluster barrier is deleted. Both
//    allocating warps are reported; without that barrier nothing orders the peer CTA's operand
//    stores and their fence.proxy.async before the leader's mma, nor its mbarrier inits before the
//    leader's multicast commit (the pair alloc's rendezvous orders no memory: PTX ISA 9.7.16.5).
// RUN: sed -e '0,/nvvm.cluster.arrive aligned/{/nvvm.cluster.arrive aligned/d}' -e '0,/nvvm.cluster.wait aligned/{/nvvm.cluster.wait aligned/d}' %S/../../data/gemm_pair_tile_hand.mlir > %t.no_barrier.mlir
// RUN: not tmem-run %t.no_barrier.mlir 2>&1 | filecheck %s --check-prefix=ALLOC
// RUN: tmem-opt %t.no_barrier.mlir -p tmem-assign-lanes,convert-tcgen05-to-nvvm | not tmem-run - --arg f16:16384 --arg f16:16384 --arg f32:65536 2>&1 | filecheck %s --check-prefix=ALLOC-NVVM
// ALLOC: error: tcgen05.alloc (cta_group::2) of warp 0 has no cluster barrier before it (barrier.cluster.arrive and barrier.cluster.wait): the peer CTA must be running when the pair allocates
// ALLOC-NEXT: tcgen05.alloc %slot, 256 cta_group(2)
// ALLOC: note: and 1 more like it at this op
// ALLOC: error: tcgen05.mma of warp 0 reads @smem_a (byte 0) through the async proxy, which warp 4 wrote with a generic-proxy store: warp 4 executed fence.proxy.async after the store, but nothing orders that fence before this tcgen05.mma
// ALLOC: error: tcgen05.commit of warp 0 from another CTA on an mbarrier whose fence.mbarrier_init is not ordered before it: a cluster barrier must follow the fence
// ALLOC-NVVM: error: nvvm.tcgen05.alloc (cta_group::2) of warp 0 has no cluster barrier before it
// ALLOC-NVVM: note: and 1 more like it at this op
// ALLOC-NVVM: error: nvvm.tcgen05.mma of warp 0 reads @smem_a (byte 0) through the async proxy, which warp 4 wrote
// ALLOC-NVVM: error: nvvm.tcgen05.commit of warp 0 from another CTA on an mbarrier whose fence.mbarrier_init is not ordered before it
//
// 2. A peer CTA that exits before the pair dealloc: only the leader's warp 0 deallocates (the
//    guard of the dealloc, after the allocation, becomes %leader_warp0); the peer CTA's warps
//    exit, so the leader's half of the pair dealloc never meets its peer, and the peer's half of
//    the allocation leaks.
// RUN: sed -e '/tcgen05.fence before_thread_sync/,$ s/scf.if %is_warp0 {/scf.if %leader_warp0 {/' %S/../../data/gemm_pair_tile_hand.mlir > %t.exits.mlir
// RUN: not tmem-run %t.exits.mlir 2>&1 | filecheck %s --check-prefix=EXIT
// RUN: tmem-opt %t.exits.mlir -p tmem-assign-lanes,convert-tcgen05-to-nvvm | not tmem-run - --arg f16:16384 --arg f16:16384 --arg f32:65536 2>&1 | filecheck %s --check-prefix=EXIT-NVVM
// EXIT: error: TMEM leak: the 256 columns that warp 4 allocated here at column 0 of CTA 1 are never deallocated before the kernel exits
// EXIT: error: tcgen05.dealloc (cta_group::2) of warp 0 in CTA 0: every thread of the peer CTA 1 exited without executing its half of the pair deallocation; the peer CTA must still be running
// EXIT: tmem-run: 2 errors, 0 warnings
// EXIT-NVVM: error: TMEM leak: the 256 columns that warp 4 allocated here at column 0 of CTA 1
// EXIT-NVVM: error: nvvm.tcgen05.dealloc (cta_group::2) of warp 0 in CTA 0: every thread of the peer CTA 1 exited without executing its half of the pair deallocation
// EXIT-NVVM: tmem-run: 2 errors, 0 warnings
