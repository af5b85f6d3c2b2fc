// A warp-specialized persistent GEMM at the tcgen05 level: C (128 x 256, f32) = A (128 x 64) *
// B^T (B: 256 x 64), f16 K-major in global memory, computed as 8 output tiles of 128 x 32.
//   warp 0 (TMA loader), one elected thread: for each tile t, waits on smem_empty[t % 4], then
//     arrive.expect_tx on smem_full[t % 4] and two TMA loads (cp.async.bulk.tensor) of A and
//     rows 32t..32t+31 of B into SMEM stage t % 4, in the 128-byte swizzle; the copies complete
//     the phase with their bytes. %tmap_a / %tmap_b are tensor maps over %a and %b (K-major,
//     64 x 128 and 64 x 256 f16; boxes 64 x 128 and 64 x 32, swizzle 128B);
//   warp 1 (MMA), one elected thread: waits on acc_empty[t % 2] (the accumulator stage is free)
//     and smem_full[t % 4], issues 4 mma k-steps into TMEM columns 32 (t % 2) .. +31, then
//     commits to smem_empty[t % 4] (the SMEM stage may be refilled) and acc_full[t % 2];
//   warps 2-5 (epilogue warpgroup): wait on acc_full[t % 2], read their lane quarter of the
//     accumulator stage (tcgen05.ld), wait::ld, release it on acc_empty[t % 2], store C's tile.
// TMEM is one tcgen05.buffer of 128 lanes x 64 columns, the two accumulator stages side by side:
// the MMA warp's D and the epilogue's lane quarter add the stage's columns (and the quarter's
// lanes) to its tcgen05.buffer_address at run time. `tmem-plan-columns` (part of `tmem-pipeline`)
// bounds those offsets (stage t % 2 < 2, quarter w % 4 < 4: columns 0-63, lanes 0-127, inside
// the buffer), keeps the buffer live across both loops (a ring used through i % 2 lives as a
// whole), allocates its 64 columns by warp 0 with the fenced publication barrier, and frees them
// after the epilogue's last tcgen05.ld.
// The SMEM ring has 4 stages (the loader runs up to 4 tiles ahead of the MMA warp), the
// accumulator ring 2 (the epilogue of tile t overlaps the mma of tile t + 1); stage t % N of a
// ring is waited with parity (t / N) & 1 by the side that uses it and ((t / N) & 1) ^ 1 by the
// side that fills it. tmem-verify proves the TMEM
// handoffs (verify_mbarrier_rings.mlir shows what it rejects), tmem-run runs it clean, and
// tests/test_warp_specialized_gemm.py compares C with numpy.
// `tmem-opt examples/warp_specialized_gemm.mlir -p tmem-pipeline -t ptx --ptxas-check` assembles it.

llvm.mlir.global internal @smem_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
llvm.mlir.global internal @smem_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
llvm.mlir.global internal @acc_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<32768 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x f16>

func.func @warp_specialized_gemm(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %a: memref<8192xf16>, %b: memref<16384xf16>, %c: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 192, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %tiles = arith.constant 8 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
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
  %smem_full = llvm.mlir.addressof @smem_full : !llvm.ptr<3>
  %smem_empty = llvm.mlir.addressof @smem_empty : !llvm.ptr<3>
  %acc_full = llvm.mlir.addressof @acc_full : !llvm.ptr<3>
  %acc_empty = llvm.mlir.addressof @acc_empty : !llvm.ptr<3>
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>

  // Both accumulator stages (2 x 32 columns), placed by tmem-plan-columns; thread 0 sets up the rings.
  %acc = tcgen05.buffer : !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
  %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
  scf.if %is_thread0 {
    %acc_full1 = llvm.getelementptr %acc_full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %acc_empty1 = llvm.getelementptr %acc_empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    scf.for %q = %c0 to %c4 step %c1 {
      %q32 = arith.index_cast %q : index to i32
      %smem_full_q = llvm.getelementptr %smem_full[%q32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %smem_empty_q = llvm.getelementptr %smem_empty[%q32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      tcgen05.mbarrier.init %smem_full_q, %c1_i32 : !llvm.ptr<3>
      tcgen05.mbarrier.init %smem_empty_q, %c1_i32 : !llvm.ptr<3>
    }
    tcgen05.mbarrier.init %acc_full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync

  scf.if %is_loader {
    // Warp 0, one elected thread: for tile t, wait until SMEM stage t % 4 is free, announce its
    // 20 KiB on smem_full[t % 4] (arrive.expect_tx), and load it with TMA: all of A (64 x 128
    // f16, one box) and rows 32t .. 32t + 31 of B, both boxed in the 128-byte swizzle the MMA's
    // descriptors read (8-row atoms of 1024 bytes).
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c4_i32 : i32
        %round = arith.divui %t32, %c4_i32 : i32
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
        // the SMEM stage q = t % 4, with its round's parity
        %q = arith.remui %t32, %c4_i32 : i32
        %q_round = arith.divui %t32, %c4_i32 : i32
        %q_ph = arith.andi %q_round, %c1_i32 : i32
        %acc_empty_s = llvm.getelementptr %acc_empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %acc_full_s = llvm.getelementptr %acc_full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_full_s = llvm.getelementptr %smem_full[%q] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %smem_empty_s = llvm.getelementptr %smem_empty[%q] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %acc_empty_s, %ph_fill : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        tcgen05.mbarrier.wait_parity %smem_full_s, %q_ph : !llvm.ptr<3>
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        %a_stage_bytes = arith.muli %q, %c16384_i32 : i32
        %b_stage_bytes = arith.muli %q, %c4096_i32 : i32
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
    %c_row = arith.muli %row, %c256 : index
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
      vector.store %values, %c[%first] : memref<32768xf32>, vector<32xf32>
    }
  }
  func.return
}
