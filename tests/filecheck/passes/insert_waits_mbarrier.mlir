// RUN: tmem-opt %s -p tmem-insert-waits | filecheck %s
// RUN: tmem-opt %s -p tmem-insert-waits,tmem-verify > /dev/null

// The reader releases the accumulator (mbarrier.arrive on @empty) before its wait::ld:
// tmem-insert-waits puts the wait::ld ahead of the release, and tmem-verify accepts the result.
// (verify_mbarrier_handoff.mlir reports the unfixed kernel.)

// CHECK:      %r0 = tcgen05.ld
// CHECK-NEXT: tcgen05.wait load {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT: tcgen05.fence before_thread_sync
// CHECK-NEXT: tcgen05.mbarrier.arrive %empty

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

// Warp 4 issues two MMAs into one 32-column accumulator; warps 0-3 read each tile. `full`
// (count 1) carries each MMA's completion to the readers (commit), `empty` (count 128) the
// readers' release of the accumulator back to warp 4.
func.func @two_tiles() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %false = arith.constant false
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c4_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %full = llvm.mlir.addressof @full : !llvm.ptr<3>
  %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
  // A (128 x 16) and B (32 x 16) f16, K-major with no swizzle, zero-filled by warps 0-3
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %zeros = arith.constant dense<0.0> : vector<16xf16>
  %zeros4 = arith.constant dense<0.0> : vector<4xf16>
  %is_reader = arith.cmpi ult, %warp, %c4_i32 : i32
  scf.if %is_reader {
    %row = arith.muli %tid, %c16_i32 : i32
    %pa = llvm.getelementptr %sa[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros, %pa {alignment = 32 : i64} : vector<16xf16>, !llvm.ptr<3>
    %c4 = arith.constant 4 : i32
    %rowb = arith.muli %tid, %c4 : i32
    %pb = llvm.getelementptr %sb[%rowb] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros4, %pb {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async
  %a_addr = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_addr = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %desc_a = tcgen05.smem_desc %a_addr lbo 128 sbo 256 none
  %desc_b = tcgen05.smem_desc %b_addr lbo 128 sbo 256 none
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32
  %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
  scf.if %is_mma {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %false : i64
      tcgen05.commit %full : !llvm.ptr<3>
      tcgen05.mbarrier.wait_parity %empty, %c0_i32 : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %false : i64
      tcgen05.commit %full : !llvm.ptr<3>
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    tcgen05.mbarrier.wait_parity %full, %c0_i32 : !llvm.ptr<3>
    tcgen05.fence after_thread_sync
    %r0 = tcgen05.ld %addr shape_32x32b x32 : vector<32xi32>
    
    tcgen05.fence before_thread_sync
    %s = tcgen05.mbarrier.arrive %empty : !llvm.ptr<3>
    tcgen05.wait load
    tcgen05.mbarrier.wait_parity %full, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence after_thread_sync
    %r1 = tcgen05.ld %addr shape_32x32b x32 : vector<32xi32>
    tcgen05.wait load
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 32
  }
  func.return
}
