// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | iree-opt > /dev/null
// REQUIRES: iree-opt

// The producer and mbarrier ops become upstream's nvvm ops (checked by iree-opt): TMEM addresses
// go through llvm.inttoptr to !llvm.ptr<6>, tcgen05.instr_desc becomes its 32-bit constant,
// tcgen05.smem_desc becomes nvvm.tcgen05.mma_smem_desc over the encoded fields (start address
// (addr & 0x3FFFF) >> 4, LBO and SBO >> 4), .scale_vec::4X becomes block_scale = block16.

// CHECK: %{{[a-z0-9_]+}} = llvm.mlir.constant(138412048 : i32) : i32
// CHECK: %{{[a-z0-9_]+}} = llvm.mlir.constant(138413184 : i32) : i32
// CHECK: %{{[a-z0-9_]+}} = llvm.mlir.constant(262143 : i32) : i32
// CHECK: %{{[a-z0-9_]+}} = llvm.and %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : i32
// CHECK: %{{[a-z0-9_]+}} = llvm.lshr %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : i32
// CHECK: %{{[a-z0-9_]+}} = nvvm.tcgen05.mma_smem_desc(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) : (i32, i32, i32, i8, i1, i8) -> i64
// CHECK: nvvm.tcgen05.mma %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, kind = f16, cta_group = <cta_1> : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK: nvvm.tcgen05.mma %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} scale = %{{[a-z0-9_]+}} mask = %{{[a-z0-9_]+}}, kind = f16, cta_group = <cta_1> : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64, vector<4xi32>)
// CHECK: nvvm.tcgen05.mma.block_scale %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, kind = mxf4nvf4, cta_group = <cta_1> block_scale = block16 : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
// CHECK: nvvm.tcgen05.mma.ws %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} kind = f16 : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
// CHECK: nvvm.tcgen05.mma.sp %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, kind = f16, cta_group = <cta_1> : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>)
// CHECK: nvvm.tcgen05.cp %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, shape = shape_64x128b multicast = warpx2_02_13 source_format = <b6x16_p32>
// CHECK: nvvm.tcgen05.cp %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, shape = shape_128x256b
// CHECK: nvvm.tcgen05.shift %{{[a-z0-9_]+}} : !llvm.ptr<6>
// CHECK: nvvm.tcgen05.commit %{{[a-z0-9_]+}} : !llvm.ptr<3>
// CHECK: nvvm.tcgen05.commit %{{[a-z0-9_]+}}, multicast_mask = %{{[a-z0-9_]+}} : !llvm.ptr<3>, i16
// CHECK: nvvm.mbarrier.init %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3>, i32
// CHECK: %{{[a-z0-9_]+}} = nvvm.mbarrier.arrive %{{[a-z0-9_]+}} : !llvm.ptr<3> -> i64
// CHECK: %{{[a-z0-9_]+}} = nvvm.mbarrier.arrive %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3> -> i64
// CHECK: %{{[a-z0-9_]+}} = nvvm.mbarrier.arrive.expect_tx %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3>, i32 -> i64
// CHECK: nvvm.mbarrier.expect_tx %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.complete_tx %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3>, i32
// CHECK: %{{[a-z0-9_]+}} = nvvm.mbarrier.try_wait %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3>, i32 -> i1
// CHECK: %{{[a-z0-9_]+}} = nvvm.mbarrier.test.wait %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3>, i64 -> i1
// CHECK: nvvm.mbarrier.try_wait.parity %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !llvm.ptr<3>, i32, i32
// CHECK: nvvm.mbarrier.inval %{{[a-z0-9_]+}} : !llvm.ptr<3>
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.fence.proxy <async.shared>, space = <cta>
// CHECK: %{{[a-z0-9_]+}} = nvvm.elect.sync -> i1

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
