// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// The producer and synchronization ops of the tcgen05 dialect: every form of tcgen05.mma, cp,
// shift, commit, the descriptor ops and the mbarrier ops print as they are written and survive
// a round trip through the custom and the generic form.

func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %at: i32, %m4: vector<4xi32>, %m8: vector<8xi32>, %addr: i32, %mask: i16, %p: i32) {
  // CHECK: %id = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  %id = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  // CHECK: tcgen05.instr_desc mxf4nvf4 m 128 n 256 a e2m1 b e2m1 scale ue4m3 negate_a
  %id2 = tcgen05.instr_desc mxf4nvf4 m 128 n 256 a e2m1 b e2m1 scale ue4m3 negate_a
  // CHECK: tcgen05.instr_desc i8 m 64 n 64 a s8 b u8 d s32 sparse saturate
  %id3 = tcgen05.instr_desc i8 m 64 n 64 a s8 b u8 d s32 sparse saturate
  // CHECK: %sd = tcgen05.smem_desc %addr lbo 16 sbo 1024 swizzle_128b
  %sd = tcgen05.smem_desc %addr lbo 16 sbo 1024 swizzle_128b
  // CHECK: tcgen05.smem_desc %addr lbo 256 sbo 128 none base_offset 3 lbo_mode 1
  %sd2 = tcgen05.smem_desc %addr lbo 256 sbo 128 none base_offset 3 lbo_mode 1
  // CHECK: tcgen05.mma f16 %d, %sd, %b, %id, %en : i64
  tcgen05.mma f16 %d, %sd, %b, %id, %en : i64
  // CHECK: tcgen05.mma f16 %d, %at, %b, %id, %en mask %m4 : vector<4xi32> scale_input_d 3 : i32
  tcgen05.mma f16 %d, %at, %b, %id, %en mask %m4 : vector<4xi32> scale_input_d 3 : i32
  // CHECK: tcgen05.mma tf32 %d, %a, %b, %p, %en mask %m8 : vector<8xi32> cta_group(2) : i64
  tcgen05.mma tf32 %d, %a, %b, %p, %en mask %m8 : vector<8xi32> cta_group(2) : i64
  // CHECK: tcgen05.mma mxf4nvf4 %d, %a, %b, %id2, %en scale_a %at scale_b %at scale_vec x4 : i64
  tcgen05.mma mxf4nvf4 %d, %a, %b, %id2, %en scale_a %at scale_b %at scale_vec x4 : i64
  // CHECK: tcgen05.mma mxf8f6f4 %d, %at, %b, %p, %en sparse_metadata %at scale_a %at scale_b %at cta_group(2) : i32
  tcgen05.mma mxf8f6f4 %d, %at, %b, %p, %en sparse_metadata %at scale_a %at scale_b %at cta_group(2) : i32
  // CHECK: tcgen05.mma f16 ws %d, %a, %b, %p, %en zero_columns %a : i64
  tcgen05.mma f16 ws %d, %a, %b, %p, %en zero_columns %a : i64
  // CHECK: tcgen05.mma i8 ws %d, %a, %b, %id3, %en sparse_metadata %at : i64
  tcgen05.mma i8 ws %d, %a, %b, %id3, %en sparse_metadata %at : i64
  // CHECK: tcgen05.cp %d, %a shape_64x128b multicast warpx2_02_13 source b6x16_p32
  tcgen05.cp %d, %a shape_64x128b multicast warpx2_02_13 source b6x16_p32
  // CHECK: tcgen05.cp %d, %a shape_32x128b multicast warpx4 cta_group(2)
  tcgen05.cp %d, %a shape_32x128b multicast warpx4 cta_group(2)
  // CHECK: tcgen05.cp %d, %a shape_4x256b
  tcgen05.cp %d, %a shape_4x256b
  // CHECK: tcgen05.shift %d cta_group(2)
  tcgen05.shift %d cta_group(2)
  // CHECK: tcgen05.commit %bar : !llvm.ptr<3>
  tcgen05.commit %bar : !llvm.ptr<3>
  // CHECK: tcgen05.commit %bar multicast %mask cta_group(2) : !llvm.ptr<3>
  tcgen05.commit %bar multicast %mask cta_group(2) : !llvm.ptr<3>
  // CHECK: tcgen05.mbarrier.init %bar, %p : !llvm.ptr<3>
  tcgen05.mbarrier.init %bar, %p : !llvm.ptr<3>
  // CHECK: %s = tcgen05.mbarrier.arrive %bar : !llvm.ptr<3>
  %s = tcgen05.mbarrier.arrive %bar : !llvm.ptr<3>
  // CHECK: tcgen05.mbarrier.arrive %bar count %p : !llvm.ptr<3>
  %s2 = tcgen05.mbarrier.arrive %bar count %p : !llvm.ptr<3>
  // CHECK: tcgen05.mbarrier.arrive_expect_tx %bar, %p : !llvm.ptr<3>
  %s3 = tcgen05.mbarrier.arrive_expect_tx %bar, %p : !llvm.ptr<3>
  // CHECK: tcgen05.mbarrier.expect_tx %bar, %p : !llvm.ptr<3>
  tcgen05.mbarrier.expect_tx %bar, %p : !llvm.ptr<3>
  // CHECK: tcgen05.mbarrier.complete_tx %bar, %p : !llvm.ptr<3>
  tcgen05.mbarrier.complete_tx %bar, %p : !llvm.ptr<3>
  // CHECK: tcgen05.mbarrier.try_wait %bar, %p : !llvm.ptr<3>, i32
  %r = tcgen05.mbarrier.try_wait %bar, %p : !llvm.ptr<3>, i32
  // CHECK: tcgen05.mbarrier.test_wait %bar, %s : !llvm.ptr<3>, i64
  %r2 = tcgen05.mbarrier.test_wait %bar, %s : !llvm.ptr<3>, i64
  // CHECK: tcgen05.mbarrier.wait_parity %bar, %p : !llvm.ptr<3>
  tcgen05.mbarrier.wait_parity %bar, %p : !llvm.ptr<3>
  // CHECK: tcgen05.mbarrier.inval %bar : !llvm.ptr<3>
  tcgen05.mbarrier.inval %bar : !llvm.ptr<3>
  // CHECK: tcgen05.fence_mbarrier_init
  tcgen05.fence_mbarrier_init
  // CHECK: tcgen05.fence_proxy_async
  tcgen05.fence_proxy_async
  // CHECK: %e = tcgen05.elect_sync
  %e = tcgen05.elect_sync
  func.return
}
