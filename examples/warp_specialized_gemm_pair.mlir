// The 2-CTA cluster variant of warp_specialized_gemm.mlir: a CTA pair (cluster of 2, cta_group::2)
// computes C (256 x 128, f32) = A (256 x 64) * B^T (B: 128 x 64), f16 K-major in global memory,
// as 4 output tiles of 256 x 32. CTA r (%cluster_ctarank r) holds rows 128r .. 128r + 127 of A and,
// of each tile's 32 rows of B, rows 16r .. 16r + 15, and writes rows 128r .. of C. Each CTA has the
// roles of the 1-CTA kernel, as CUTLASS's 2-SM kernels split them:
//   warp 0 (TMA loader), one elected thread, in both CTAs: for tile t, waits on its CTA's
//     smem_empty[t % 2], then loads its halves of A and B into its SMEM stage t % 2 with
//     .cta_group::2 TMA copies whose mbarrier operand is the *leader's* smem_full[t % 2] (the
//     shared::cluster address mapa gives): the bytes of both CTAs complete there. The leader's
//     loader announces them (arrive.expect_tx of both CTAs' 2 x 18 KiB);
//   warp 1 (MMA), in the leader CTA only, one elected thread: waits on the leader's
//     acc_empty[t % 2] and smem_full[t % 2], issues 4 M = 256 cta_group::2 mma k-steps (A and B
//     from both CTAs' SMEM, D's halves into both CTAs' TMEM columns 32 (t % 2) .. +31), then
//     commits with the multicast mask 0b11 to smem_empty[t % 2] (both loaders may refill) and
//     acc_full[t % 2] (both epilogues may read);
//   warps 2-5 (epilogue warpgroup), in both CTAs: wait on their CTA's acc_full[t % 2], read their
//     lane quarter of their CTA's half of the accumulator stage, wait::ld, and release it on the
//     leader's acc_empty[t % 2] (256 arrivals: both CTAs' epilogues; the peer's are remote arrives
//     through mapa), then store C's tile.
// TMEM is one tcgen05.buffer of 128 lanes x 64 columns in each CTA, the two accumulator stages
// side by side; tmem-plan-columns sees the cta_group::2 mmas and writes the pair's allocation:
// warp 0 of each CTA allocates 64 columns with cta_group::2 right after the kernel's cluster
// barrier (the peer running; every mbarrier init visible to the other CTA), and after the
// epilogue a fenced cluster barrier (no CTA exits while the other still signals it) comes before
// the pair deallocation. tests/data/warp_specialized_gemm_pair_hand.mlir allocates by hand.
// `tmem-run examples/warp_specialized_gemm_pair.mlir --cta-pair --arg ...` runs it;
// tests/test_warp_specialized_gemm_pair.py compares C with numpy.
// `tmem-opt examples/warp_specialized_gemm_pair.mlir -p tmem-plan-columns,tmem-assign-lanes -t ptx --ptxas-check` assembles it.

llvm.mlir.global internal @smem_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @acc_empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>

func.func @warp_specialized_gemm_pair(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %a: memref<16384xf16>, %b: memref<8192xf16>, %c: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 192, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
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
  %c256_i32 = arith.constant 256 : i32
  %c1024_i32 = arith.constant 1024 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %c8192_i32 = arith.constant 8192 : i32
  %c16384_i32 = arith.constant 16384 : i32
  %pair_stage_bytes = arith.constant 36864 : i32
  %both_ctas = arith.constant 3 : i16
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %lane_i32 = arith.andi %tid, %c31_i32 : i32
  %is_loader = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c1_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %is_leader = arith.cmpi eq, %rank, %c0_i32 : i32
  %smem_full = llvm.mlir.addressof @smem_full : !llvm.ptr<3>
  %smem_empty = llvm.mlir.addressof @smem_empty : !llvm.ptr<3>
  %acc_full = llvm.mlir.addressof @acc_full : !llvm.ptr<3>
  %acc_empty = llvm.mlir.addressof @acc_empty : !llvm.ptr<3>
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>

  // Thread 0 of each CTA sets up its rings (the leader's full and acc_empty barriers are the ones
  // used; acc_empty counts the epilogue threads of both CTAs); the cluster barrier makes the inits
  // visible to the other CTA and has the peer running before the pair allocates (tmem-plan-columns
  // writes the allocation after it).
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
    tcgen05.mbarrier.init %acc_empty, %c256_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %acc_empty1, %c256_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned

  // The pair's two accumulator stages (2 x 32 columns of each CTA's TMEM).
  %acc = tcgen05.buffer : !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
  %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>

  scf.if %is_loader {
    // Warp 0 of each CTA, one elected thread: this CTA's 128 rows of A (one 64 x 128 box) and 16
    // of the tile's 32 rows of B (a 64 x 16 box), both in the 128-byte swizzle the descriptors
    // read, into SMEM stage t % 2; their bytes complete on the leader's smem_full[t % 2].
    %a_row = arith.muli %rank, %c128_i32 : i32
    %b_half = arith.muli %rank, %c16_i32 : i32
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
        scf.if %is_leader {
          %token = tcgen05.mbarrier.arrive_expect_tx %full_s, %pair_stage_bytes : !llvm.ptr<3>
        }
        // the leader's smem_full[t % 2], as a shared::cluster address
        %leader_full = nvvm.mapa %full_s, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
        %leader_full_bits = llvm.ptrtoint %leader_full : !llvm.ptr<7> to i32
        %leader_full_s = llvm.inttoptr %leader_full_bits : i32 to !llvm.ptr<3>
        %a_elems = arith.muli %s, %c8192_i32 : i32
        %b_elems = arith.muli %s, %c1024_i32 : i32
        %a_dst = llvm.getelementptr %sa[%a_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_dst = llvm.getelementptr %sb[%b_elems] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
        %b_tile = arith.muli %t32, %c32_i32 : i32
        %b_row = arith.addi %b_tile, %b_half : i32
        tcgen05.tma_load %a_dst, %tmap_a [%c0_i32, %a_row], %leader_full_s cta_group(2)
        tcgen05.tma_load %b_dst, %tmap_b [%c0_i32, %b_row], %leader_full_s cta_group(2)
      }
    }
  }

  %leader_mma = arith.andi %is_mma, %is_leader : i1
  scf.if %leader_mma {
    // Warp 1 of the leader: tile t into accumulator stage t % 2 (columns 32 (t % 2) .. +31 of both
    // CTAs' TMEM), M = 256 (128 rows per CTA), N = 32 (16 rows of B per CTA).
    %idesc = tcgen05.instr_desc f16 m 256 n 32 a f16 b f16 d f32
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
        %b_stage_bytes = arith.muli %s, %c2048_i32 : i32
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
          tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %accumulate cta_group(2) : i64
        }
        tcgen05.commit %smem_empty_s multicast %both_ctas cta_group(2) : !llvm.ptr<3>
        tcgen05.commit %acc_full_s multicast %both_ctas cta_group(2) : !llvm.ptr<3>
      }
    }
  }

  %is_epilogue = arith.cmpi uge, %warp, %c2_i32 : i32
  scf.if %is_epilogue {
    // Warps 2-5 of CTA r: warp w reads lane quarter w % 4 of its CTA's half of each tile, rows
    // 128r + 32 (w % 4) .. +31 of C.
    %quarter = arith.andi %warp, %c3_i32 : i32
    %quarter_row = arith.muli %quarter, %c32_i32 : i32
    %lane_bits = arith.shli %quarter_row, %c16_i32 : i32
    %taddr = arith.addi %d, %lane_bits : i32
    %cta_row = arith.muli %rank, %c128_i32 : i32
    %first_row = arith.addi %cta_row, %quarter_row : i32
    %row_i32 = arith.addi %first_row, %lane_i32 : i32
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
      // release the stage on the leader's acc_empty[t % 2] (a remote arrive from the peer)
      %leader_acc_empty = nvvm.mapa %acc_empty_s, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
      nvvm.mbarrier.arrive %leader_acc_empty : !llvm.ptr<7>
      %values = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
      %tile_col = arith.muli %t, %c32 : index
      %first = arith.addi %c_row, %tile_col : index
      vector.store %values, %c[%first] : memref<32768xf32>, vector<32xf32>
    }
  }
  func.return
}
