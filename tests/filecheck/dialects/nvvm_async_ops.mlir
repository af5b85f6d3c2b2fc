// REQUIRES: iree-opt
// RUN: tmem-opt %s | iree-opt | filecheck %s
// RUN: tmem-opt %s | iree-opt --mlir-print-op-generic > %t.ours
// RUN: iree-opt %s --mlir-print-op-generic > %t.upstream
// RUN: diff %t.ours %t.upstream
// RUN: tmem-opt %s | tmem-opt | filecheck %s

// The producer and mbarrier ops of upstream NVVM, in the custom form iree-opt itself prints:
// tmem-opt reads them, prints them unchanged, and iree-opt reads the result as the same IR.

llvm.func @k(%arg0: !llvm.ptr<6>, %arg1: i64, %arg2: i64, %arg3: i32, %arg4: i1, %arg5: !llvm.ptr<6>, %arg6: vector<4xi32>, %arg7: vector<8xi32>, %arg8: !llvm.ptr<3>, %arg9: i64, %arg10: i32, %arg11: i16, %arg12: i8, %arg13: !llvm.ptr, %arg14: i64, %arg15: !llvm.ptr<6>, %arg16: !llvm.ptr<6>) {
  // CHECK: nvvm.tcgen05.mma
  nvvm.tcgen05.mma %arg0, %arg1, %arg2, %arg3, %arg4 scale = %arg14 mask = %arg7, kind = f16, cta_group = <cta_2> collector_a = use collector_b = lastuse : (!llvm.ptr<6>, i64, i64, i32, i1, i64, vector<8xi32>)
  // CHECK: nvvm.tcgen05.mma
  nvvm.tcgen05.mma %arg0, %arg5, %arg2, %arg3, %arg4, kind = f16, cta_group = <cta_2> collector_b = lastuse a_shift : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  // CHECK: nvvm.tcgen05.mma
  nvvm.tcgen05.mma %arg0, %arg1, %arg2, %arg3, %arg4, kind = tf32, cta_group = <cta_1> : (!llvm.ptr<6>, i64, i64, i32, i1)
  // CHECK: nvvm.tcgen05.mma.sp
  nvvm.tcgen05.mma.sp %arg0, %arg5, %arg2, %arg3, %arg4, %arg15 scale = %arg14 mask = %arg6, kind = f16, cta_group = <cta_1> collector_a = lastuse collector_b = fill a_shift : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, i64, vector<4xi32>)
  // CHECK: nvvm.tcgen05.mma.block_scale
  nvvm.tcgen05.mma.block_scale %arg0, %arg1, %arg2, %arg3, %arg4, %arg15, %arg16, kind = mxf4, cta_group = <cta_2> block_scale = block32 collector_a = use collector_b = lastuse : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  // CHECK: nvvm.tcgen05.mma.sp.block_scale
  nvvm.tcgen05.mma.sp.block_scale %arg0, %arg1, %arg2, %arg3, %arg4, %arg15, %arg15, %arg16, kind = mxf4, cta_group = <cta_1> : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>, !llvm.ptr<6>)
  // CHECK: nvvm.tcgen05.mma.ws
  nvvm.tcgen05.mma.ws %arg0, %arg1, %arg2, %arg3, %arg4 kind = f16 : (!llvm.ptr<6>, i64, i64, i32, i1)
  // CHECK: nvvm.tcgen05.mma.ws.sp
  nvvm.tcgen05.mma.ws.sp %arg0, %arg1, %arg2, %arg3, %arg4, %arg15, %arg14 kind = tf32 collector_b_buffer = b3 collector_b = fill : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, i64)
  // CHECK: nvvm.mbarrier.init
  nvvm.mbarrier.init %arg8, %arg10 : !llvm.ptr<3>, i32
  // CHECK: nvvm.mbarrier.arrive
  %0 = nvvm.mbarrier.arrive %arg8 : !llvm.ptr<3> -> i64
  // CHECK: nvvm.mbarrier.arrive
  %1 = nvvm.mbarrier.arrive %arg8, %arg10 : !llvm.ptr<3> -> i64
  // CHECK: nvvm.mbarrier.arrive
  nvvm.mbarrier.arrive %arg8 : !llvm.ptr<3>
  // CHECK: nvvm.mbarrier.arrive.expect_tx
  %2 = nvvm.mbarrier.arrive.expect_tx %arg8, %arg10 : !llvm.ptr<3>, i32 -> i64
  // CHECK: nvvm.mbarrier.arrive.expect_tx
  nvvm.mbarrier.arrive.expect_tx %arg8, %arg10 : !llvm.ptr<3>, i32
  // CHECK: nvvm.mbarrier.expect_tx
  nvvm.mbarrier.expect_tx %arg8, %arg10 : !llvm.ptr<3>, i32
  // CHECK: nvvm.mbarrier.complete_tx
  nvvm.mbarrier.complete_tx %arg8, %arg10 : !llvm.ptr<3>, i32
  // CHECK: nvvm.mbarrier.try_wait
  %3 = nvvm.mbarrier.try_wait %arg8, %0 : !llvm.ptr<3>, i64 -> i1
  // CHECK: nvvm.mbarrier.test.wait
  %4 = nvvm.mbarrier.test.wait %arg8, %arg10 : !llvm.ptr<3>, i32 -> i1
  // CHECK: nvvm.mbarrier.try_wait.parity
  nvvm.mbarrier.try_wait.parity %arg8, %arg10, %arg10 : !llvm.ptr<3>, i32, i32
  // CHECK: nvvm.mbarrier.inval
  nvvm.mbarrier.inval %arg8 : !llvm.ptr<3>
  // CHECK: nvvm.fence.proxy
  nvvm.fence.proxy <async.shared>, space = <cta>
  // CHECK: nvvm.fence.proxy
  nvvm.fence.proxy <async>
  // CHECK: nvvm.fence.mbarrier.init
  nvvm.fence.mbarrier.init
  // CHECK: nvvm.elect.sync
  %5 = nvvm.elect.sync -> i1
  // CHECK: nvvm.tcgen05.cp
  nvvm.tcgen05.cp %arg0, %arg9, shape = shape_128x256b
  // CHECK: nvvm.tcgen05.cp
  nvvm.tcgen05.cp %arg0, %arg9, shape = shape_64x128b group = <cta_2> multicast = warpx2_01_23 source_format = <b6x16_p32>
  // CHECK: nvvm.tcgen05.shift
  nvvm.tcgen05.shift %arg0 : !llvm.ptr<6>
  // CHECK: nvvm.tcgen05.shift
  nvvm.tcgen05.shift %arg0, group = <cta_2> : !llvm.ptr<6>
  // CHECK: nvvm.tcgen05.commit
  nvvm.tcgen05.commit %arg8 : !llvm.ptr<3>
  // CHECK: nvvm.tcgen05.commit
  nvvm.tcgen05.commit %arg8, multicast_mask = %arg11 group = <cta_2> : !llvm.ptr<3>, i16
  // CHECK: nvvm.tcgen05.commit
  nvvm.tcgen05.commit %arg8 group = <cta_2> : !llvm.ptr<3>
  // CHECK: nvvm.tcgen05.mma_smem_desc
  %6 = nvvm.tcgen05.mma_smem_desc(%arg10, %arg10, %arg10, %arg12, %arg4, %arg12) : (i32, i32, i32, i8, i1, i8) -> i64
  llvm.return
}
