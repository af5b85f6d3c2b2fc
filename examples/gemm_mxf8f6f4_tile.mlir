// A block-scaled 128x256x128 MXFP8 GEMM tile at the tcgen05 level, one warpgroup:
// C = (A * scale_A) * (B * scale_B)^T with A (128 x 128) and B (256 x 128) K-major e4m3, one ue8m0
// scale factor per 32 elements of K (PTX ISA 9.7.16.10.7 "Block Scaling", .scale_vec::1X), C f32.
// The operands arrive as i32 words (four e4m3 / ue8m0 codes each, little-endian).
//   1. every thread copies its rows of A and B into shared memory with st.shared, in the
//      canonical K-major 128-byte-swizzle layout (16-byte chunk c of row r at chunk c ^ (r % 8),
//      8-row atoms of 1024 bytes: SBO = 1024); a 128-byte row is all of K;
//   2. the scale factors arrive packed as the MMA reads them (9.7.16.10.7.2 / .3: row r of A or B
//      in lane r % 32 of TMEM column r // 32, k-block kb in byte kb of the word): a 32-row x
//      16-byte tile per 128 rows whose row r0 holds, in byte 4 * c + kb, the scale of row
//      32 * c + r0 for k-block kb. Threads copy them to shared memory as they are;
//   3. fence.proxy.async makes the generic-proxy writes visible to the async proxy (mma and cp);
//   4. TMEM is declared by buffer (tcgen05.buffer): D (128 x 256 f32), scale_A (128 lanes x 4
//      columns, a word per row of each 32-row group) and scale_B (256 rows: two tiles, 8 columns);
//      the mma and the copies take their addresses (tcgen05.buffer_address, scale_B's second tile
//      at column 4 of its buffer); thread 0 initializes the mbarrier;
//   5. one elected thread copies the scale tiles into TMEM with tcgen05.cp.32x128b.warpx4, which
//      duplicates them into all four lane partitions as 9.7.16.10.7 requires, then issues 4 mma
//      k-steps of K = 32 (the descriptors advance 32 bytes per step inside the swizzle row; the
//      scale-factor IDs select byte k of each scale word), and commits: cp -> mma is pipelined
//      (9.7.16.6), one commit tracks all of them;
//   6. every thread waits for phase 0, the warpgroup reads the accumulator (tile_load, one row per
//      thread) and stores it to C.
// `tmem-plan-columns` (part of `tmem-pipeline`) places the three buffers, 268 columns, in a
// 512-column allocation (no column alignment: the PTX ISA states none, isa.TMEM_COLUMN_ALIGNMENT;
// the scale factors span all 128 lanes, duplicated per partition, so they sit at lane 0): warp 0
// allocates and relinquishes, a fenced barrier publishes the address, and the dealloc follows the
// tile_load (the scale factors stay live until the mbarrier wait that retires the mma reading them).
// `tmem-opt examples/gemm_mxf8f6f4_tile.mlir -p tmem-pipeline -t ptx --ptxas-check` assembles it.

llvm.mlir.global internal @mma_done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i32>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x i32>
llvm.mlir.global internal @smem_sfa() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<128 x i32>
llvm.mlir.global internal @smem_sfb() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<256 x i32>

func.func @gemm_mxf8f6f4_tile(%a: memref<4096xi32>, %b: memref<8192xi32>, %sfa: memref<128xi32>, %sfb: memref<256xi32>, %c: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
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
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %row = arith.index_cast %tid : i32 to index
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %ssfa = llvm.mlir.addressof @smem_sfa : !llvm.ptr<3>
  %ssfb = llvm.mlir.addressof @smem_sfb : !llvm.ptr<3>
  %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %sfa_base = llvm.ptrtoint %ssfa : !llvm.ptr<3> to i32
  %sfb_base = llvm.ptrtoint %ssfb : !llvm.ptr<3> to i32

  // 1. global -> shared, swizzled: row r (32 words), 16-byte chunk j goes to chunk j ^ (r % 8)
  %phase = arith.remui %row, %c8 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %src = arith.muli %j, %c4 : index
    %swz = arith.xori %j, %phase : index
    %dst = arith.muli %swz, %c4 : index
    %a_row = arith.muli %row, %c32 : index
    %a_src = arith.addi %a_row, %src : index
    %a_dst = arith.addi %a_row, %dst : index
    %va = vector.load %a[%a_src] : memref<4096xi32>, vector<4xi32>
    %a_dst64 = arith.index_cast %a_dst : index to i64
    %pa = llvm.getelementptr %sa[%a_dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
    llvm.store %va, %pa {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
    scf.for %half = %c0 to %c256 step %c128 {
      %b_r = arith.addi %row, %half : index
      %b_row = arith.muli %b_r, %c32 : index
      %b_src = arith.addi %b_row, %src : index
      %b_dst = arith.addi %b_row, %dst : index
      %vb = vector.load %b[%b_src] : memref<8192xi32>, vector<4xi32>
      %b_dst64 = arith.index_cast %b_dst : index to i64
      %pb = llvm.getelementptr %sb[%b_dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
      llvm.store %vb, %pb {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
    }
  }
  // 2. the packed scale tiles, word for word: thread t copies word t of scale_A, words t and
  //    t + 128 of scale_B
  %wa = memref.load %sfa[%row] : memref<128xi32>
  %row64 = arith.index_cast %row : index to i64
  %pfa = llvm.getelementptr %ssfa[%row64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
  llvm.store %wa, %pfa : i32, !llvm.ptr<3>
  scf.for %half = %c0 to %c256 step %c128 {
    %i = arith.addi %row, %half : index
    %wb = memref.load %sfb[%i] : memref<256xi32>
    %i64 = arith.index_cast %i : index to i64
    %pfb = llvm.getelementptr %ssfb[%i64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
    llvm.store %wb, %pfb : i32, !llvm.ptr<3>
  }
  // 3. generic-proxy writes -> async proxy
  tcgen05.fence_proxy_async

  // 4. the TMEM buffers (placed in columns by tmem-plan-columns) and the mbarrier
  %bar = llvm.mlir.addressof @mma_done : !llvm.ptr<3>
  %acc = tcgen05.buffer : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %sf_a = tcgen05.buffer : !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
  %sf_b = tcgen05.buffer : !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
  %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %t_sfa = tcgen05.buffer_address %sf_a [0, 0] : !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
  %t_sfb = tcgen05.buffer_address %sf_b [0, 0] : !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
  %t_sfb2 = tcgen05.buffer_address %sf_b [0, 4] : !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync

  // 5. one thread copies the scale factors and issues the MMAs: M = 128, N = 256, K = 4 x 32;
  //    k-step k scales with byte k of each scale word (scale-factor IDs k)
  %idesc0 = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0
  %idesc1 = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 1 scale_b_id 1
  %idesc2 = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 2 scale_b_id 2
  %idesc3 = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 3 scale_b_id 3
  scf.if %is_warp0 {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      %sfb_addr2 = arith.addi %sfb_base, %c512_i32 : i32
      %desc_sfa = tcgen05.smem_desc %sfa_base lbo 16 sbo 128 none
      %desc_sfb = tcgen05.smem_desc %sfb_base lbo 16 sbo 128 none
      %desc_sfb2 = tcgen05.smem_desc %sfb_addr2 lbo 16 sbo 128 none
      tcgen05.cp %t_sfa, %desc_sfa shape_32x128b multicast warpx4
      tcgen05.cp %t_sfb, %desc_sfb shape_32x128b multicast warpx4
      tcgen05.cp %t_sfb2, %desc_sfb2 shape_32x128b multicast warpx4
      %false = arith.constant false
      %true = arith.constant true
      %desc_a0 = tcgen05.smem_desc %a_base lbo 16 sbo 1024 swizzle_128b
      %desc_b0 = tcgen05.smem_desc %b_base lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a0, %desc_b0, %idesc0, %false scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
      %a1 = arith.addi %a_base, %c32_i32 : i32
      %b1 = arith.addi %b_base, %c32_i32 : i32
      %desc_a1 = tcgen05.smem_desc %a1 lbo 16 sbo 1024 swizzle_128b
      %desc_b1 = tcgen05.smem_desc %b1 lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a1, %desc_b1, %idesc1, %true scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
      %a2 = arith.addi %a_base, %c64_i32 : i32
      %b2 = arith.addi %b_base, %c64_i32 : i32
      %desc_a2 = tcgen05.smem_desc %a2 lbo 16 sbo 1024 swizzle_128b
      %desc_b2 = tcgen05.smem_desc %b2 lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a2, %desc_b2, %idesc2, %true scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
      %a3 = arith.addi %a_base, %c96_i32 : i32
      %b3 = arith.addi %b_base, %c96_i32 : i32
      %desc_a3 = tcgen05.smem_desc %a3 lbo 16 sbo 1024 swizzle_128b
      %desc_b3 = tcgen05.smem_desc %b3 lbo 16 sbo 1024 swizzle_128b
      tcgen05.mma mxf8f6f4 %d, %desc_a3, %desc_b3, %idesc3, %true scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
      tcgen05.commit %bar : !llvm.ptr<3>
    }
  }

  // 6. wait for the copies and MMAs, read the accumulator, store C
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %tile = tcgen05.tile_load %acc [0, 0] [128, 256] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<256xf32>
  tcgen05.wait load
  %first = arith.muli %row, %c256 : index
  vector.store %tile, %c[%first] : memref<32768xf32>, vector<256xf32>
  func.return
}
