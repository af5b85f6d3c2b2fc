// RUN: tmem-opt %S/../../../examples/gemm_mxf4nvf4_tile.mlir -p tmem-pipeline -t ptx --ptx-version 8.7 --ptxas-check | filecheck %s
// RUN: not tmem-opt %S/../../../examples/gemm_mxf4nvf4_tile.mlir -p tmem-pipeline -t ptx 2>&1 | filecheck %s --check-prefix=V86
// REQUIRES: ptxas

// The block-scaled NVFP4 tile example, planned by tmem-pipeline (D and the per-k-step scale
// factors are tcgen05.buffer ops, the k-step's columns added at run time), assembles with PTX ISA 8.7 (kind::mxf4nvf4 and
// .scale_vec::4X are 8.7), and the default 8.6 target says why it cannot take it.

// CHECK: .version 8.7
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [tmem_plan_slot], 512;
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4
// CHECK: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 138413184, [%r{{[0-9]+}}], [%r{{[0-9]+}}], %p{{[0-9]+}};
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mma_done];

// V86: error: 'nvvm.tcgen05.mma.block_scale': tcgen05.mma kind::mxf4nvf4.scale_vec::4X needs PTX ISA 8.7, the target is 8.6
