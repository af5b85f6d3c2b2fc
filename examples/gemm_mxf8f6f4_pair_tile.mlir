// A block-scaled 256x256x128 MXFP8 GEMM tile computed by a CTA pair (a cluster of 2, cta_group::2)
// at the tcgen05 level: C = (A * scale_A) * (B * scale_B)^T with A (256 x 128) and B (256 x 128)
// K-major e4m3, one ue8m0 scale factor per 32 elements of K (.scale_vec::1X), C (256 x 256) f32.
// The operands arrive as i32 words (four e4m3 / ue8m0 codes each, little-endian). CTA r
// (%cluster_ctarank r) holds rows 128r .. 128r + 127 of A and of B, and of D and C.
//   1. every thread copies row 128r + tid of A and of B into its CTA's shared memory with
//      st.shared, K-major 128-byte swizzle (16-byte chunk j of row i at chunk j ^ (i % 8), SBO =
//      1024), as in gemm_mxf8f6f4_tile.mlir;
//   2. the scale factors, packed as the MMA reads them (a 32-row x 16-byte tile per 128 rows,
//      see gemm_mxf8f6f4_tile.mlir): CTA r's shared memory gets the scale_A tile of its own 128
//      rows and both scale_B tiles (all 256 columns of B): each CTA's tensor core scales its
//      half of D with its rows of scale_A and every column of scale_B, read from its own TMEM
//      (isa.pair_scale_factor_rows); fence.proxy.async;
//   3. thread 0 of each CTA initializes its mbarrier; a cluster barrier (both CTAs running,
//      operands and mbarriers ready);
//   4. TMEM is declared by buffer, as in gemm_mxf8f6f4_tile.mlir: D (128 lanes x 256 columns of
//      each CTA), scale_A (4 columns) and scale_B (8 columns: two tiles); tmem-plan-columns sees
//      the cta_group::2 ops and writes the pair's allocation after that cluster barrier: warp 0
//      of each CTA allocates 512 columns with cta_group::2 (the buffers' 268, the same columns
//      in both CTAs: D in 0-255, scale_A and scale_B after it);
//   5. one elected thread of the leader (rank 0) copies the scale tiles with cta_group::2
//      tcgen05.cp.32x128b.warpx4 (each CTA's shared memory -> its own TMEM, duplicated into the
//      four lane partitions), issues 4 M = 256 cta_group::2 mma k-steps of K = 32 (scale-factor
//      IDs k) and commits with the multicast mask 0b11;
//   6. each CTA waits for phase 0 of its mbarrier, reads its half of D and stores its rows of C;
//   7. after the last read of D the pass writes a fenced cluster barrier, then the pair
//      deallocates. tests/data/gemm_mxf8f6f4_pair_tile_hand.mlir allocates by hand.
// `tmem-run examples/gemm_mxf8f6f4_pair_tile.mlir --cta-pair --arg ...` runs it;
// tests/test_block_scaled_pair.py compares C with numpy and assembles it with ptxas.

llvm.mlir.global internal @mma_done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i32>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i32>
llvm.mlir.global internal @smem_sfa() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<128 x i32>
llvm.mlir.global internal @smem_sfb() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<256 x i32>

func.func @gemm_mxf8f6f4_pair_tile(%a: memref<8192xi32>, %b: memref<8192xi32>, %sfa: memref<256xi32>, %sfb: memref<256xi32>, %c: memref<65536xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c5_i32 = arith.constant 5 : i32
  %c32_i32 = arith.constant 32 : i32
  %c64_i32 = arith.constant 64 : i32
  %c96_i32 = arith.constant 96 : i32
  %c512_i32 = arith.constant 512 : i32
  %both_ctas = arith.constant 3 : i16
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %is_leader = arith.cmpi eq, %rank, %c0_i32 : i32
  %row = arith.index_cast %tid : i32 to index
  %rank_index = arith.index_cast %rank : i32 to index
  %half = arith.muli %rank_index, %c128 : index
  %global_row = arith.addi %half, %row : index
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %ssfa = llvm.mlir.addressof @smem_sfa : !llvm.ptr<3>
  %ssfb = llvm.mlir.addressof @smem_sfb : !llvm.ptr<3>
  %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %sfa_base = llvm.ptrtoint %ssfa : !llvm.ptr<3> to i32
  %sfb_base = llvm.ptrtoint %ssfb : !llvm.ptr<3> to i32

  // 1. this CTA's rows of A and B, global -> shared, swizzled: 16-byte chunk j of row i goes to
  //    chunk j ^ (i % 8)
  %phase = arith.remui %row, %c8 : index
  %src_row = arith.muli %global_row, %c32 : index
  %dst_row = arith.muli %row, %c32 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %src_chunk = arith.muli %j, %c4 : index
    %swz = arith.xori %j, %phase : index
    %dst_chunk = arith.muli %swz, %c4 : index
    %src = arith.addi %src_row, %src_chunk : index
    %dst = arith.addi %dst_row, %dst_chunk : index
    %dst64 = arith.index_cast %dst : index to i64
    %va = vector.load %a[%src] : memref<8192xi32>, vector<4xi32>
    %pa = llvm.getelementptr %sa[%dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
    llvm.store %va, %pa {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
    %vb = vector.load %b[%src] : memref<8192xi32>, vector<4xi32>
    %pb = llvm.getelementptr %sb[%dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
    llvm.store %vb, %pb {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
  }
  // 2. the scale tiles: word t of this CTA's scale_A tile, words t and t + 128 of scale_B
  %sfa_src = arith.addi %half, %row : index
  %wa = memref.load %sfa[%sfa_src] : memref<256xi32>
  %row64 = arith.index_cast %row : index to i64
  %pfa = llvm.getelementptr %ssfa[%row64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
  llvm.store %wa, %pfa : i32, !llvm.ptr<3>
  scf.for %h = %c0 to %c256 step %c128 {
    %i = arith.addi %row, %h : index
    %wb = memref.load %sfb[%i] : memref<256xi32>
    %i64 = arith.index_cast %i : index to i64
    %pfb = llvm.getelementptr %ssfb[%i64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
    llvm.store %wb, %pfb : i32, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async

  // 3. the mbarrier the leader's commit arrives on, in each CTA; both CTAs ready
  %bar = llvm.mlir.addressof @mma_done : !llvm.ptr<3>
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned

  // 4. the pair's TMEM buffers, the same columns in each CTA (placed by tmem-plan-columns)
  %acc = tcgen05.buffer : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %sf_a = tcgen05.buffer : !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
  %sf_b = tcgen05.buffer : !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
  %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %t_sfa = tcgen05.buffer_address %sf_a [0, 0] : !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
  %t_sfb = tcgen05.buffer_address %sf_b [0, 0] : !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
  %t_sfb2 = tcgen05.buffer_address %sf_b [0, 4] : !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>

  // 5. the leader copies the scale factors and issues the pair's MMAs: M = 256, N = 256, K = 4 x 32
  %idesc0 = tcgen05.instr_desc mxf8f6f4 m 256 n 256 a e4m3 b e4m3 scale ue8m0
  %idesc1 = tcgen05.instr_desc mxf8f6f4 m 256 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 1 scale_b_id 1
  %idesc2 = tcgen05.instr_desc mxf8f6f4 m 256 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 2 scale_b_id 2
  %idesc3 = tcgen05.instr_desc mxf8f6f4 m 256 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 3 scale_b_id 3
  %leader_warp0 = arith.andi %is_leader, %is_warp0 : i1
  scf.if %leader_warp0 {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      %sfb_addr2 = arith.addi %sfb_base, %c512_i32 : i32
      %desc_sfa = tcgen05.smem_desc %sfa_base lbo 16 sbo 128 none
      %desc_sfb = tcgen05.smem_desc %sfb_base lbo 16 sbo 128 none
      %desc_sfb2 = tcgen05.smem_desc %sfb_addr2 lbo 16 sbo 128 none
      tcgen05.cp %t_sfa, %desc_sfa shape_32x128b multicast warpx4 cta_group(2)
      tcgen05.cp %t_sfb, %desc_sfb shape_32x128b multicast warpx4 cta_group(2)
      tcgen05.cp %t_sfb2, %desc_sfb2 shape_32x128b multicast warpx4 cta_group(2)
      %false = arith.constant false
      %true = arith.constant true
      %desc_a0 = tcgen05.smem_desc %a_base lbo 16 sbo 1024 swizzle_128b
      %desc_b0 = tcgen05.smem_desc %b_base lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a0, %desc_b0, %idesc0, %false scale_a %t_sfa scale_b %t_sfb scale_vec x1 cta_group(2) : i64
      %a1 = arith.addi %a_base, %c32_i32 : i32
      %b1 = arith.addi %b_base, %c32_i32 : i32
      %desc_a1 = tcgen05.smem_desc %a1 lbo 16 sbo 1024 swizzle_128b
      %desc_b1 = tcgen05.smem_desc %b1 lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a1, %desc_b1, %idesc1, %true scale_a %t_sfa scale_b %t_sfb scale_vec x1 cta_group(2) : i64
      %a2 = arith.addi %a_base, %c64_i32 : i32
      %b2 = arith.addi %b_base, %c64_i32 : i32
      %desc_a2 = tcgen05.smem_desc %a2 lbo 16 sbo 1024 swizzle_128b
      %desc_b2 = tcgen05.smem_desc %b2 lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a2, %desc_b2, %idesc2, %true scale_a %t_sfa scale_b %t_sfb scale_vec x1 cta_group(2) : i64
      %a3 = arith.addi %a_base, %c96_i32 : i32
      %b3 = arith.addi %b_base, %c96_i32 : i32
      %desc_a3 = tcgen05.smem_desc %a3 lbo 16 sbo 1024 swizzle_128b
      %desc_b3 = tcgen05.smem_desc %b3 lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a3, %desc_b3, %idesc3, %true scale_a %t_sfa scale_b %t_sfb scale_vec x1 cta_group(2) : i64
      tcgen05.commit %bar multicast %both_ctas cta_group(2) : !llvm.ptr<3>
    }
  }

  // 6. each CTA waits on its own mbarrier, reads its half of D, stores its rows of C
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %tile = tcgen05.tile_load %acc [0, 0] [128, 256] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<256xf32>
  tcgen05.wait load
  %first = arith.muli %global_row, %c256 : index
  vector.store %tile, %c[%first] : memref<65536xf32>, vector<256xf32>
  func.return
}
