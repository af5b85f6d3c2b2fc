// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// SMEM rings fed by TMA (issue 11, passes/analysis/smem_rings.py): the loader's TMA load that
// completes on smem_full[t % 2] fills SMEM stage t % 2; the MMA warp's tcgen05.commit on
// smem_empty[t % 2] releases it once the mmas have read it. The cases are
// examples/warp_specialized_gemm.mlir as it was with 2 SMEM stages, hand-allocated, and its buggy twins.
// At the NVVM level the same errors, in the same order:
// NVVM: error: this nvvm.cp.async.bulk.tensor.shared.cluster.global refills stage t % 2 of the ring in iteration t + 2 without waiting, before it in its iteration, on 'smem_empty'[t % 2]
// NVVM: error: this nvvm.cp.async.bulk.tensor.shared.cluster.global refills stage t % 2 of the ring in iteration t + 2 without waiting
// NVVM: error: this wait on stage t % 2 of the ring has parity (t / 2) & 1, as does the other side's
// NVVM: error: this nvvm.cp.async.bulk.tensor.shared.cluster.global refills stage t % 2 of the ring after waiting on 'smem_empty'[t % 2], but nothing tracking the nvvm.tcgen05.mma
// NVVM: error: this nvvm.cp.async.bulk.tensor.shared.cluster.global refills stage t % 2 of the ring after waiting on 'smem_empty'[t % 2], but nothing tracking the nvvm.tcgen05.mma
// NVVM-NOT: error

// The legal SMEM ring (examples/warp_specialized_gemm.mlir with 2 stages): clean.

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @smem_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x f16>

func.func @warp_specialized_gemm(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %a: memref<8192xf16>, %b: memref<8192xf16>, %c: memref<16384xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 192, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %tiles = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c31_i32 = arith.constant 31 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %c4096_i32 = arith.constant 4096 : i32
  %c16384_i32 = arith.constant 16384 : i32
  %c8192_i32 = arith.constant 8192 : i32
  %stage_bytes = arith.constant 20480 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %lane_i32 = arith.andi %tid, %c31_i32 : i32
  %is_loader = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c1_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  %smem_full = llvm.mlir.addressof @smem_full : !llvm.ptr<3>
  %smem_empty = llvm.mlir.addressof @smem_empty : !llvm.ptr<3>
  %acc_full = llvm.mlir.addressof @acc_full : !llvm.ptr<3>
  %acc_empty = llvm.mlir.addressof @acc_empty : !llvm.ptr<3>
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>

  // The MMA warp allocates both accumulator stages (2 x 32 columns); thread 0 sets up the rings.
  scf.if %is_mma {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %smem_full1 = llvm.getelementptr %smem_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %smem_empty1 = llvm.getelementptr %smem_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_full1 = llvm.getelementptr %acc_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_empty1 = llvm.getelementptr %acc_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %smem_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32

  scf.if %is_loader {
    // Warp 0, one elected thread: for tile t, wait until SMEM stage t % 2 is free, announce its
    // 20 KiB on smem_full[t % 2] (arrive.expect_tx), and load it with TMA: all of A (64 x 128
    // f16, one box) and rows 32t .. 32t + 31 of B, both boxed in the 128-byte swizzle the MMA's
    // descriptors read (8-row atoms of 1024 bytes).
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %empty_s, %ph_fill : !llvm.ptr<3>
        %token = tcgen05.mbarrier.arrive_expect_tx %full_s, %stage_bytes : !llvm.ptr<3>
        %a_elems = arith.muli %s, %c8192_i32 : i32
        %b_elems = arith.muli %s, %c2048_i32 : i32
        %a_dst = llvm.getelementptr %sa[%a_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_dst = llvm.getelementptr %sb[%b_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_row = arith.muli %t32, %c32_i32 : i32
        tcgen05.tma_load %a_dst, %tmap_a [%c0_i32, %c0_i32], %full_s
        tcgen05.tma_load %b_dst, %tmap_b [%c0_i32, %b_row], %full_s
      }
    }
  }

  scf.if %is_mma {
    // Warp 1: tile t into accumulator stage t % 2 (columns 32 (t % 2) .. +31), M = 128, N = 32.
    %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
    %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
    %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %acc_empty_s, %ph_fill : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        tcgen05.mbarrier.wait_parity %smem_full_s, %ph : !llvm.ptr<3>
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        %a_stage_bytes = arith.muli %s, %c16384_i32 : i32
        %b_stage_bytes = arith.muli %s, %c4096_i32 : i32
        %a_stage = arith.addi %a_base, %a_stage_bytes : i32
        %b_stage = arith.addi %b_base, %b_stage_bytes : i32
        scf.for %k = %c0 to %c4 step %c1 {
          %k_i32 = arith.index_cast %k : index to i32
          %step = arith.muli %k_i32, %c32_i32 : i32
          %a_addr = arith.addi %a_stage, %step : i32
          %b_addr = arith.addi %b_stage, %step : i32
          %desc_a = tcgen05.smem_desc %a_addr lbo 16 sbo 1024 swizzle_128b
          %desc_b = tcgen05.smem_desc %b_addr lbo 16 sbo 1024 swizzle_128b
          %accumulate = arith.cmpi ne, %k, %c0 : index
          tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %accumulate : i64
        }
        tcgen05.commit %smem_empty_s : !llvm.ptr<3>
        tcgen05.commit %acc_full_s : !llvm.ptr<3>
      }
    }
  }

  %is_epilogue = arith.cmpi uge, %warp, %c2_i32 : i32
  scf.if %is_epilogue {
    // Warps 2-5: warp w reads lane quarter w % 4 (rows 32 (w % 4) .. +31) of each tile.
    %quarter = arith.andi %warp, %c3_i32 : i32
    %quarter_row = arith.muli %quarter, %c32_i32 : i32
    %lane_bits = arith.shli %quarter_row, %c16_i32 : i32
    %taddr = arith.addi %d, %lane_bits : i32
    %row_i32 = arith.addi %quarter_row, %lane_i32 : i32
    %row = arith.index_cast %row_i32 : i32 to index
    %c_row = arith.muli %row, %c128 : index
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      tcgen05.mbarrier.wait_parity %acc_full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %taddr_s = arith.addi %taddr, %col : i32
      %bits = tcgen05.ld %taddr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %acc_empty_s : !llvm.ptr<3>
      %values = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
      %tile_col = arith.muli %t, %c32 : index
      %first = arith.addi %c_row, %tile_col : index
      vector.store %values, %c[%first] : memref<16384xf32>, vector<32xf32>
    }
  }

  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_mma {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

// The loader refills stage t % 2 without waiting on smem_empty[t % 2] (which the MMA warp's
// commit releases once its mmas have read the stage): a TMA write into a stage an mma may still read.

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @smem_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x f16>

func.func @warp_specialized_gemm(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %a: memref<8192xf16>, %b: memref<8192xf16>, %c: memref<16384xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 192, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %tiles = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c31_i32 = arith.constant 31 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %c4096_i32 = arith.constant 4096 : i32
  %c16384_i32 = arith.constant 16384 : i32
  %c8192_i32 = arith.constant 8192 : i32
  %stage_bytes = arith.constant 20480 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %lane_i32 = arith.andi %tid, %c31_i32 : i32
  %is_loader = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c1_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  %smem_full = llvm.mlir.addressof @smem_full : !llvm.ptr<3>
  %smem_empty = llvm.mlir.addressof @smem_empty : !llvm.ptr<3>
  %acc_full = llvm.mlir.addressof @acc_full : !llvm.ptr<3>
  %acc_empty = llvm.mlir.addressof @acc_empty : !llvm.ptr<3>
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>

  // The MMA warp allocates both accumulator stages (2 x 32 columns); thread 0 sets up the rings.
  scf.if %is_mma {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %smem_full1 = llvm.getelementptr %smem_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %smem_empty1 = llvm.getelementptr %smem_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_full1 = llvm.getelementptr %acc_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_empty1 = llvm.getelementptr %acc_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %smem_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32

  scf.if %is_loader {
    // Warp 0, one elected thread: for tile t, wait until SMEM stage t % 2 is free, announce its
    // 20 KiB on smem_full[t % 2] (arrive.expect_tx), and load it with TMA: all of A (64 x 128
    // f16, one box) and rows 32t .. 32t + 31 of B, both boxed in the 128-byte swizzle the MMA's
    // descriptors read (8-row atoms of 1024 bytes).
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %token = tcgen05.mbarrier.arrive_expect_tx %full_s, %stage_bytes : !llvm.ptr<3>
        %a_elems = arith.muli %s, %c8192_i32 : i32
        %b_elems = arith.muli %s, %c2048_i32 : i32
        %a_dst = llvm.getelementptr %sa[%a_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_dst = llvm.getelementptr %sb[%b_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_row = arith.muli %t32, %c32_i32 : i32
        // expected-error@+2 {{this tcgen05.tma_load refills stage t % 2 of the ring in iteration t + 2 without waiting, before it in its iteration, on 'smem_empty'[t % 2]: the tcgen05.mma of iteration t may still be reading the stage (the loop runs 4 times, more than its 2 stages)}}
        // expected-error@+2 {{this tcgen05.tma_load refills stage t % 2 of the ring in iteration t + 2 without waiting}}
        tcgen05.tma_load %a_dst, %tmap_a [%c0_i32, %c0_i32], %full_s
        tcgen05.tma_load %b_dst, %tmap_b [%c0_i32, %b_row], %full_s
      }
    }
  }

  scf.if %is_mma {
    // Warp 1: tile t into accumulator stage t % 2 (columns 32 (t % 2) .. +31), M = 128, N = 32.
    %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
    %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
    %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %acc_empty_s, %ph_fill : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        tcgen05.mbarrier.wait_parity %smem_full_s, %ph : !llvm.ptr<3>
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        %a_stage_bytes = arith.muli %s, %c16384_i32 : i32
        %b_stage_bytes = arith.muli %s, %c4096_i32 : i32
        %a_stage = arith.addi %a_base, %a_stage_bytes : i32
        %b_stage = arith.addi %b_base, %b_stage_bytes : i32
        scf.for %k = %c0 to %c4 step %c1 {
          %k_i32 = arith.index_cast %k : index to i32
          %step = arith.muli %k_i32, %c32_i32 : i32
          %a_addr = arith.addi %a_stage, %step : i32
          %b_addr = arith.addi %b_stage, %step : i32
          %desc_a = tcgen05.smem_desc %a_addr lbo 16 sbo 1024 swizzle_128b
          %desc_b = tcgen05.smem_desc %b_addr lbo 16 sbo 1024 swizzle_128b
          %accumulate = arith.cmpi ne, %k, %c0 : index
          // expected-note@+2 {{the tcgen05.mma reading the stage}}
          // expected-note@+1 {{the tcgen05.mma reading the stage}}
          tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %accumulate : i64
        }
        // expected-note@+2 {{the commit releasing the stage on 'smem_empty'}}
        // expected-note@+1 {{the commit releasing the stage on 'smem_empty'}}
        tcgen05.commit %smem_empty_s : !llvm.ptr<3>
        tcgen05.commit %acc_full_s : !llvm.ptr<3>
      }
    }
  }

  %is_epilogue = arith.cmpi uge, %warp, %c2_i32 : i32
  scf.if %is_epilogue {
    // Warps 2-5: warp w reads lane quarter w % 4 (rows 32 (w % 4) .. +31) of each tile.
    %quarter = arith.andi %warp, %c3_i32 : i32
    %quarter_row = arith.muli %quarter, %c32_i32 : i32
    %lane_bits = arith.shli %quarter_row, %c16_i32 : i32
    %taddr = arith.addi %d, %lane_bits : i32
    %row_i32 = arith.addi %quarter_row, %lane_i32 : i32
    %row = arith.index_cast %row_i32 : i32 to index
    %c_row = arith.muli %row, %c128 : index
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      tcgen05.mbarrier.wait_parity %acc_full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %taddr_s = arith.addi %taddr, %col : i32
      %bits = tcgen05.ld %taddr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %acc_empty_s : !llvm.ptr<3>
      %values = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
      %tile_col = arith.muli %t, %c32 : index
      %first = arith.addi %c_row, %tile_col : index
      vector.store %values, %c[%first] : memref<16384xf32>, vector<32xf32>
    }
  }

  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_mma {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

// The loader waits on smem_empty[t % 2] with the consumer's parity (t / 2) & 1 instead of the
// filler's ((t / 2) & 1) ^ 1: the TMA marks the loader as the filling side, so the error is at its wait.

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @smem_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x f16>

func.func @warp_specialized_gemm(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %a: memref<8192xf16>, %b: memref<8192xf16>, %c: memref<16384xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 192, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %tiles = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c31_i32 = arith.constant 31 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %c4096_i32 = arith.constant 4096 : i32
  %c16384_i32 = arith.constant 16384 : i32
  %c8192_i32 = arith.constant 8192 : i32
  %stage_bytes = arith.constant 20480 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %lane_i32 = arith.andi %tid, %c31_i32 : i32
  %is_loader = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c1_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  %smem_full = llvm.mlir.addressof @smem_full : !llvm.ptr<3>
  %smem_empty = llvm.mlir.addressof @smem_empty : !llvm.ptr<3>
  %acc_full = llvm.mlir.addressof @acc_full : !llvm.ptr<3>
  %acc_empty = llvm.mlir.addressof @acc_empty : !llvm.ptr<3>
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>

  // The MMA warp allocates both accumulator stages (2 x 32 columns); thread 0 sets up the rings.
  scf.if %is_mma {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %smem_full1 = llvm.getelementptr %smem_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %smem_empty1 = llvm.getelementptr %smem_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_full1 = llvm.getelementptr %acc_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_empty1 = llvm.getelementptr %acc_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %smem_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32

  scf.if %is_loader {
    // Warp 0, one elected thread: for tile t, wait until SMEM stage t % 2 is free, announce its
    // 20 KiB on smem_full[t % 2] (arrive.expect_tx), and load it with TMA: all of A (64 x 128
    // f16, one box) and rows 32t .. 32t + 31 of B, both boxed in the 128-byte swizzle the MMA's
    // descriptors read (8-row atoms of 1024 bytes).
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        // expected-error@+1 {{this wait on stage t % 2 of the ring has parity (t / 2) & 1, as does the other side's: in iteration t each side waits}}
        tcgen05.mbarrier.wait_parity %empty_s, %ph : !llvm.ptr<3>
        %token = tcgen05.mbarrier.arrive_expect_tx %full_s, %stage_bytes : !llvm.ptr<3>
        %a_elems = arith.muli %s, %c8192_i32 : i32
        %b_elems = arith.muli %s, %c2048_i32 : i32
        %a_dst = llvm.getelementptr %sa[%a_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_dst = llvm.getelementptr %sb[%b_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_row = arith.muli %t32, %c32_i32 : i32
        tcgen05.tma_load %a_dst, %tmap_a [%c0_i32, %c0_i32], %full_s
        tcgen05.tma_load %b_dst, %tmap_b [%c0_i32, %b_row], %full_s
      }
    }
  }

  scf.if %is_mma {
    // Warp 1: tile t into accumulator stage t % 2 (columns 32 (t % 2) .. +31), M = 128, N = 32.
    %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
    %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
    %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %acc_empty_s, %ph_fill : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        // expected-note@+1 {{the other side's wait}}
        tcgen05.mbarrier.wait_parity %smem_full_s, %ph : !llvm.ptr<3>
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        %a_stage_bytes = arith.muli %s, %c16384_i32 : i32
        %b_stage_bytes = arith.muli %s, %c4096_i32 : i32
        %a_stage = arith.addi %a_base, %a_stage_bytes : i32
        %b_stage = arith.addi %b_base, %b_stage_bytes : i32
        scf.for %k = %c0 to %c4 step %c1 {
          %k_i32 = arith.index_cast %k : index to i32
          %step = arith.muli %k_i32, %c32_i32 : i32
          %a_addr = arith.addi %a_stage, %step : i32
          %b_addr = arith.addi %b_stage, %step : i32
          %desc_a = tcgen05.smem_desc %a_addr lbo 16 sbo 1024 swizzle_128b
          %desc_b = tcgen05.smem_desc %b_addr lbo 16 sbo 1024 swizzle_128b
          %accumulate = arith.cmpi ne, %k, %c0 : index
          tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %accumulate : i64
        }
        tcgen05.commit %smem_empty_s : !llvm.ptr<3>
        tcgen05.commit %acc_full_s : !llvm.ptr<3>
      }
    }
  }

  %is_epilogue = arith.cmpi uge, %warp, %c2_i32 : i32
  scf.if %is_epilogue {
    // Warps 2-5: warp w reads lane quarter w % 4 (rows 32 (w % 4) .. +31) of each tile.
    %quarter = arith.andi %warp, %c3_i32 : i32
    %quarter_row = arith.muli %quarter, %c32_i32 : i32
    %lane_bits = arith.shli %quarter_row, %c16_i32 : i32
    %taddr = arith.addi %d, %lane_bits : i32
    %row_i32 = arith.addi %quarter_row, %lane_i32 : i32
    %row = arith.index_cast %row_i32 : i32 to index
    %c_row = arith.muli %row, %c128 : index
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      tcgen05.mbarrier.wait_parity %acc_full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %taddr_s = arith.addi %taddr, %col : i32
      %bits = tcgen05.ld %taddr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %acc_empty_s : !llvm.ptr<3>
      %values = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
      %tile_col = arith.muli %t, %c32 : index
      %first = arith.addi %c_row, %tile_col : index
      vector.store %values, %c[%first] : memref<16384xf32>, vector<32xf32>
    }
  }

  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_mma {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

// The MMA warp releases smem_empty[t % 2] with an mbarrier.arrive right after issuing its mmas:
// the loader waits for it, but the arrive does not track the mmas (only tcgen05.commit does).

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @smem_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x f16>

func.func @warp_specialized_gemm(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %a: memref<8192xf16>, %b: memref<8192xf16>, %c: memref<16384xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 192, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %tiles = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c31_i32 = arith.constant 31 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %c4096_i32 = arith.constant 4096 : i32
  %c16384_i32 = arith.constant 16384 : i32
  %c8192_i32 = arith.constant 8192 : i32
  %stage_bytes = arith.constant 20480 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %lane_i32 = arith.andi %tid, %c31_i32 : i32
  %is_loader = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c1_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  %smem_full = llvm.mlir.addressof @smem_full : !llvm.ptr<3>
  %smem_empty = llvm.mlir.addressof @smem_empty : !llvm.ptr<3>
  %acc_full = llvm.mlir.addressof @acc_full : !llvm.ptr<3>
  %acc_empty = llvm.mlir.addressof @acc_empty : !llvm.ptr<3>
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>

  // The MMA warp allocates both accumulator stages (2 x 32 columns); thread 0 sets up the rings.
  scf.if %is_mma {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %smem_full1 = llvm.getelementptr %smem_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %smem_empty1 = llvm.getelementptr %smem_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_full1 = llvm.getelementptr %acc_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_empty1 = llvm.getelementptr %acc_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %smem_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %smem_empty1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32

  scf.if %is_loader {
    // Warp 0, one elected thread: for tile t, wait until SMEM stage t % 2 is free, announce its
    // 20 KiB on smem_full[t % 2] (arrive.expect_tx), and load it with TMA: all of A (64 x 128
    // f16, one box) and rows 32t .. 32t + 31 of B, both boxed in the 128-byte swizzle the MMA's
    // descriptors read (8-row atoms of 1024 bytes).
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %empty_s, %ph_fill : !llvm.ptr<3>
        %token = tcgen05.mbarrier.arrive_expect_tx %full_s, %stage_bytes : !llvm.ptr<3>
        %a_elems = arith.muli %s, %c8192_i32 : i32
        %b_elems = arith.muli %s, %c2048_i32 : i32
        %a_dst = llvm.getelementptr %sa[%a_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_dst = llvm.getelementptr %sb[%b_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_row = arith.muli %t32, %c32_i32 : i32
        // expected-error@+2 {{this tcgen05.tma_load refills stage t % 2 of the ring after waiting on 'smem_empty'[t % 2], but nothing tracking the tcgen05.mma that reads the stage releases that barrier}}
        // expected-error@+2 {{this tcgen05.tma_load refills stage t % 2 of the ring after waiting on 'smem_empty'[t % 2]}}
        tcgen05.tma_load %a_dst, %tmap_a [%c0_i32, %c0_i32], %full_s
        tcgen05.tma_load %b_dst, %tmap_b [%c0_i32, %b_row], %full_s
      }
    }
  }

  scf.if %is_mma {
    // Warp 1: tile t into accumulator stage t % 2 (columns 32 (t % 2) .. +31), M = 128, N = 32.
    %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
    %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
    %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_fill = arith.xori %ph, %c1_i32 : i32
        %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_full_s = llvm.getelementptr %smem_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_empty_s = llvm.getelementptr %smem_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %acc_empty_s, %ph_fill : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        tcgen05.mbarrier.wait_parity %smem_full_s, %ph : !llvm.ptr<3>
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        %a_stage_bytes = arith.muli %s, %c16384_i32 : i32
        %b_stage_bytes = arith.muli %s, %c4096_i32 : i32
        %a_stage = arith.addi %a_base, %a_stage_bytes : i32
        %b_stage = arith.addi %b_base, %b_stage_bytes : i32
        scf.for %k = %c0 to %c4 step %c1 {
          %k_i32 = arith.index_cast %k : index to i32
          %step = arith.muli %k_i32, %c32_i32 : i32
          %a_addr = arith.addi %a_stage, %step : i32
          %b_addr = arith.addi %b_stage, %step : i32
          %desc_a = tcgen05.smem_desc %a_addr lbo 16 sbo 1024 swizzle_128b
          %desc_b = tcgen05.smem_desc %b_addr lbo 16 sbo 1024 swizzle_128b
          %accumulate = arith.cmpi ne, %k, %c0 : index
          // expected-note@+2 {{the tcgen05.mma reading the stage}}
          // expected-note@+1 {{the tcgen05.mma reading the stage}}
          tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %accumulate : i64
        }
        // expected-note@+2 {{the release of 'smem_empty', which does not track the mma}}
        // expected-note@+1 {{the release of 'smem_empty', which does not track the mma}}
        %released = tcgen05.mbarrier.arrive %smem_empty_s : !llvm.ptr<3>
        tcgen05.commit %acc_full_s : !llvm.ptr<3>
      }
    }
  }

  %is_epilogue = arith.cmpi uge, %warp, %c2_i32 : i32
  scf.if %is_epilogue {
    // Warps 2-5: warp w reads lane quarter w % 4 (rows 32 (w % 4) .. +31) of each tile.
    %quarter = arith.andi %warp, %c3_i32 : i32
    %quarter_row = arith.muli %quarter, %c32_i32 : i32
    %lane_bits = arith.shli %quarter_row, %c16_i32 : i32
    %taddr = arith.addi %d, %lane_bits : i32
    %row_i32 = arith.addi %quarter_row, %lane_i32 : i32
    %row = arith.index_cast %row_i32 : i32 to index
    %c_row = arith.muli %row, %c128 : index
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      tcgen05.mbarrier.wait_parity %acc_full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %taddr_s = arith.addi %taddr, %col : i32
      %bits = tcgen05.ld %taddr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %acc_empty_s : !llvm.ptr<3>
      %values = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
      %tile_col = arith.muli %t, %c32 : index
      %first = arith.addi %c_row, %tile_col : index
      vector.store %values, %c[%first] : memref<16384xf32>, vector<32xf32>
    }
  }

  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_mma {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 64
  }
  func.return
}
