// RUN: tmem-opt %S/../../../examples/gemm_mxf8f6f4_tile.mlir -p tmem-pipeline -t ptx --ptxas-check | filecheck %s
// REQUIRES: ptxas

// The block-scaled 128x256x128 MXFP8 tile example, planned by tmem-pipeline (D and both scale
// factor tensors are tcgen05.buffer ops: one 512-column allocation opens the kernel), assembles: the scale tiles copied into TMEM
// with tcgen05.cp.32x128b.warpx4, four block-scaled mma k-steps whose instruction descriptors
// carry the scale-factor IDs 0-3 (bits 29-30 for A, 4-5 for B; UE8M0 in bit 23), one commit.

// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [tmem_plan_slot], 512;
// CHECK: fence.proxy.async.shared::cta;
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4 [%r{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4 [%r{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4 [%r{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 146800640, [%r[[SFA:[0-9]+]]], [%r[[SFB:[0-9]+]]], %p{{[0-9]+}};
// CHECK: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 683671568, [%r[[SFA]]], [%r[[SFB]]], %p{{[0-9]+}};
// CHECK: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1220542496, [%r[[SFA]]], [%r[[SFB]]], %p{{[0-9]+}};
// CHECK: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1757413424, [%r[[SFA]]], [%r[[SFB]]], %p{{[0-9]+}};
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mma_done];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [mma_done], 0;
// CHECK: tcgen05.ld.sync.aligned.32x32b.x128.b32
