// RUN: tmem-opt %S/../../../examples/gemm_f16_tile.mlir -p tmem-pipeline -t ptx --ptxas-check | filecheck %s
// REQUIRES: ptxas

// The 128x256x64 f16 GEMM tile example, planned by tmem-pipeline (its accumulator is a
// tcgen05.buffer: the alloc opens the kernel, the mma takes the published base, the dealloc
// follows the accumulator read), assembles: st.shared into the swizzled layout, the
// proxy fence, the mbarrier, four mma k-steps with descriptors built at run time, the commit,
// the parity wait and the warpgroup's accumulator read.

// CHECK: .shared .align 1024 .b8 smem_a[16384];
// CHECK: .shared .align 1024 .b8 smem_b[32768];
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [tmem_plan_slot], 256;
// CHECK: ld.shared.b32 %r[[BASE:[0-9]+]], [tmem_plan_slot];
// CHECK: st.shared.v4.b16
// CHECK: fence.proxy.async.shared::cta;
// CHECK: mbarrier.init.shared::cta.b64 [mma_done], 1;
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: elect.sync _|%p{{[0-9]+}}, -1;
// CHECK: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611756662049538048;
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[BASE]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 138412048, %p{{[0-9]+}};
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mma_done];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [mma_done], 0;
// CHECK: tcgen05.ld.sync.aligned.32x32b.x128.b32
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r[[BASE]], 256;
