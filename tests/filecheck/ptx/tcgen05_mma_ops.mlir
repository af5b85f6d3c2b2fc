// RUN: tmem-opt %s -t ptx --ptx-version 8.8 | filecheck %s
// RUN: tmem-opt %s -t ptx --ptx-version 8.8 --ptxas-check > /dev/null
// REQUIRES: ptxas

// Every producer and mbarrier instruction, as the PTX target spells it, accepted by ptxas
// (PTX 8.8: kind::mxf4nvf4 needs 8.7). A constant SMEM descriptor field folds into the 64-bit
// immediate (the fixed 0b001 at bit 46 included); upstream's block_scale = block16 is spelled
// .scale_vec::4X, legal before PTX 8.8 too; the blocking parity wait is a try_wait loop.

// CHECK: and.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 262143;
// CHECK-NEXT: shr.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 4;
// CHECK-NEXT: cvt.u64.u32 %rd{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NEXT: and.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 16383;
// CHECK-NEXT: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611756662049538048;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 138412048, %p{{[0-9]+}};
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r{{[0-9]+}}], [%r{{[0-9]+}}], %rd{{[0-9]+}}, 138412048, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %p{{[0-9]+}}, 3;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, 138413184, [%r{{[0-9]+}}], [%r{{[0-9]+}}], %p{{[0-9]+}};
// CHECK-NEXT: tcgen05.mma.ws.cta_group::1.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, %p{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK-NEXT: tcgen05.mma.sp.cta_group::1.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [%r{{[0-9]+}}], %r{{[0-9]+}}, %p{{[0-9]+}};
// CHECK-NEXT: tcgen05.cp.cta_group::1.64x128b.warpx2::02_13.b8x16.b6x16_p32 [%r{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK-NEXT: tcgen05.cp.cta_group::1.128x256b [%r{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK-NEXT: tcgen05.shift.cta_group::1.down [%r{{[0-9]+}}];
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [bar], %rs{{[0-9]+}};
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [bar], 1;
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 %rd{{[0-9]+}}, [bar];
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [bar], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [bar], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.test_wait.shared::cta.b64 %p{{[0-9]+}}, [bar], %rd{{[0-9]+}};
// CHECK-NEXT: [[LOOP:\$L__mbarrier_wait_[0-9_]+]]:
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [bar], %r{{[0-9]+}};
// CHECK-NEXT: @!%p{{[0-9]+}} bra.uni [[LOOP:\$L__mbarrier_wait_[0-9_]+]];
// CHECK-NEXT: mbarrier.inval.shared::cta.b64 [bar];
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: elect.sync _|%p{{[0-9]+}}, -1;

llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
func.func @k(%d: i32, %a: i64, %b: i64, %at: i32, %addr: i32, %mask: i16, %p: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %en = arith.constant true
  %one = arith.constant 1 : i32
  %m4 = vector.broadcast %p : i32 to vector<4xi32>
  %id = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  %id2 = tcgen05.instr_desc mxf4nvf4 m 128 n 256 a e2m1 b e2m1 scale ue4m3
  %sd = tcgen05.smem_desc %addr lbo 16 sbo 1024 swizzle_128b
  tcgen05.mma f16 %d, %sd, %b, %id, %en : i64
  tcgen05.mma f16 %d, %at, %b, %id, %en mask %m4 : vector<4xi32> scale_input_d 3 : i32
  tcgen05.mma mxf4nvf4 %d, %a, %b, %id2, %en scale_a %at scale_b %at scale_vec x4 : i64
  tcgen05.mma f16 ws %d, %a, %b, %p, %en zero_columns %a : i64
  tcgen05.mma f16 %d, %a, %b, %p, %en sparse_metadata %at : i64
  tcgen05.cp %d, %a shape_64x128b multicast warpx2_02_13 source b6x16_p32
  tcgen05.cp %d, %a shape_128x256b
  tcgen05.shift %d
  tcgen05.commit %bar : !llvm.ptr<3>
  tcgen05.commit %bar multicast %mask : !llvm.ptr<3>
  tcgen05.mbarrier.init %bar, %one : !llvm.ptr<3>
  %s = tcgen05.mbarrier.arrive %bar : !llvm.ptr<3>
  %s2 = tcgen05.mbarrier.arrive %bar count %p : !llvm.ptr<3>
  %s3 = tcgen05.mbarrier.arrive_expect_tx %bar, %p : !llvm.ptr<3>
  tcgen05.mbarrier.expect_tx %bar, %p : !llvm.ptr<3>
  tcgen05.mbarrier.complete_tx %bar, %p : !llvm.ptr<3>
  %r = tcgen05.mbarrier.try_wait %bar, %p : !llvm.ptr<3>, i32
  %r2 = tcgen05.mbarrier.test_wait %bar, %s : !llvm.ptr<3>, i64
  tcgen05.mbarrier.wait_parity %bar, %p : !llvm.ptr<3>
  tcgen05.mbarrier.inval %bar : !llvm.ptr<3>
  tcgen05.fence_mbarrier_init
  tcgen05.fence_proxy_async
  %e = tcgen05.elect_sync
  func.return
}
