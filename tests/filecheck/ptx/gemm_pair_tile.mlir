// RUN: tmem-opt %S/../../../examples/gemm_pair_tile.mlir -p tmem-pipeline -t ptx --ptxas-check | filecheck %s
// REQUIRES: ptxas

// The CTA-pair GEMM tile example assembles: a cluster of 2, the cluster barrier before the pair
// allocation (the kernel's own: tmem-plan-columns writes the allocation after it), the leader's M = 256 cta_group::2 mmas, the commit multicast to both CTAs'
// mbarriers, and the pair deallocation after the second cluster barrier.

// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2
// CHECK: mov.u32 %r{{[0-9]+}}, %cluster_ctarank;
// CHECK: fence.proxy.async.shared::cta;
// CHECK: mbarrier.init.shared::cta.b64 [mma_done], 1;
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: barrier.cluster.arrive.aligned;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// CHECK: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [tmem_plan_slot], 256;
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CHECK: tcgen05.mma.cta_group::2.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 272629776, %p{{[0-9]+}};
// CHECK: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [mma_done], %rs{{[0-9]+}};
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [mma_done], 0;
// CHECK: tcgen05.ld.sync.aligned.32x32b.x128.b32
// CHECK: barrier.cluster.arrive.aligned;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// CHECK: tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r{{[0-9]+}}, 256;
