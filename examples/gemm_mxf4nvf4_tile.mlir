// A block-scaled 128x256x256 NVFP4 GEMM tile at the tcgen05 level, one warpgroup:
// C = (A * scale_A) * (B * scale_B)^T with A (128 x 256) and B (256 x 256) K-major e2m1, packed two
// per byte (the even element in the low nibble), one ue4m3 scale factor per 16 elements of K
// (PTX ISA 9.7.16.10.7, .kind::mxf4nvf4 with .scale_vec::4X), C f32. Operands arrive as i32 words.
//   1. every thread copies its rows of A and B into shared memory with st.shared, in the
//      canonical K-major 128-byte-swizzle layout (as examples/gemm_mxf8f6f4_tile.mlir: a
//      128-byte row is all of K, 256 elements);
//   2. one mma (K = 64) takes four scale factors per row, the whole 32-bit word (scale-factor
//      ID 0, 9.7.16.10.7.2.3): the 4 k-steps take 4 sets of words. They arrive packed per k-step
//      as the MMA reads them: for k-step k, a 32-row x 16-byte tile per 128 rows whose row r0
//      holds, in byte 4 * c + j, the scale of row 32 * c + r0 for block 4k + j;
//   3. fence.proxy.async; TMEM is declared by buffer (tcgen05.buffer): D (128 x 256 f32),
//      scale_A (16 columns: 4 per k-step) and scale_B (32 columns: 8 per k-step, two tiles); the
//      k-step adds its columns (4k, 8k, and 4 more for scale_B's second tile) to the buffers'
//      tcgen05.buffer_address at run time;
//   4. one elected thread, per k-step: copies that k-step's scale tiles with
//      tcgen05.cp.32x128b.warpx4 (duplicated into all four lane partitions), issues the mma with
//      the k-step's scale addresses (the descriptors advance 32 bytes = 64 elements), then
//      commits once: cp -> mma is pipelined (9.7.16.6);
//   5. every thread waits for phase 0 and stores its row of the accumulator to C.
// `tmem-plan-columns` (part of `tmem-pipeline`) bounds the k-step offsets (k < 4: columns 0-15 of
// scale_A, 0-31 of scale_B, inside the buffers), places the three buffers in 304 columns of a
// 512-column allocation, and frees them after the tile_load (the scale factors stay live until
// the mbarrier wait that retires the last mma reading them).
// `tmem-opt examples/gemm_mxf4nvf4_tile.mlir -p tmem-pipeline -t ptx --ptx-version 8.7 --ptxas-check`
// assembles it.

llvm.mlir.global internal @mma_done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i32>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x i32>
llvm.mlir.global internal @smem_sfa() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<512 x i32>
llvm.mlir.global internal @smem_sfb() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<1024 x i32>

func.func @gemm_mxf4nvf4_tile(%a: memref<4096xi32>, %b: memref<8192xi32>, %sfa: memref<512xi32>, %sfb: memref<1024xi32>, %c: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c8_i32 = arith.constant 8 : i32
  %c32_i32 = arith.constant 32 : i32
  %c512_i32 = arith.constant 512 : i32
  %c1024_i32 = arith.constant 1024 : i32
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
  // 2. the packed scale tiles, word for word (thread t: words t, t + 128, ...)
  scf.for %i0 = %c0 to %c512 step %c128 {
    %i = arith.addi %row, %i0 : index
    %wa = memref.load %sfa[%i] : memref<512xi32>
    %i64 = arith.index_cast %i : index to i64
    %pfa = llvm.getelementptr %ssfa[%i64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
    llvm.store %wa, %pfa : i32, !llvm.ptr<3>
  }
  scf.for %i0 = %c0 to %c1024 step %c128 {
    %i = arith.addi %row, %i0 : index
    %wb = memref.load %sfb[%i] : memref<1024xi32>
    %i64 = arith.index_cast %i : index to i64
    %pfb = llvm.getelementptr %ssfb[%i64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
    llvm.store %wb, %pfb : i32, !llvm.ptr<3>
  }
  // 3. generic-proxy writes -> async proxy; TMEM and the mbarrier
  tcgen05.fence_proxy_async
  %bar = llvm.mlir.addressof @mma_done : !llvm.ptr<3>
  %acc = tcgen05.buffer : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %sf_a = tcgen05.buffer : !tcgen05.tmem<128x16xi32, S[(128, 16) : (1@TLane, 1@TCol)]>
  %sf_b = tcgen05.buffer : !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
  %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %sfa0 = tcgen05.buffer_address %sf_a [0, 0] : !tcgen05.tmem<128x16xi32, S[(128, 16) : (1@TLane, 1@TCol)]>
  %sfb0 = tcgen05.buffer_address %sf_b [0, 0] : !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync

  // 4. per k-step: the scale tiles into TMEM, then the mma (M = 128, N = 256, K = 64)
  %idesc = tcgen05.instr_desc mxf4nvf4 m 128 n 256 a e2m1 b e2m1 scale ue4m3
  scf.if %is_warp0 {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %k = %c0 to %c4 step %c1 {
        %k_i32 = arith.index_cast %k : index to i32
        %k4 = arith.muli %k_i32, %c4_i32 : i32
        %k8 = arith.muli %k_i32, %c8_i32 : i32
        %t_sfa = arith.addi %sfa0, %k4 : i32
        %t_sfb = arith.addi %sfb0, %k8 : i32
        %t_sfb2 = arith.addi %t_sfb, %c4_i32 : i32
        %off_a = arith.muli %k_i32, %c512_i32 : i32
        %off_b = arith.muli %k_i32, %c1024_i32 : i32
        %src_sfa = arith.addi %sfa_base, %off_a : i32
        %src_sfb = arith.addi %sfb_base, %off_b : i32
        %src_sfb2 = arith.addi %src_sfb, %c512_i32 : i32
        %desc_sfa = tcgen05.smem_desc %src_sfa lbo 16 sbo 128 none
        %desc_sfb = tcgen05.smem_desc %src_sfb lbo 16 sbo 128 none
        %desc_sfb2 = tcgen05.smem_desc %src_sfb2 lbo 16 sbo 128 none
        tcgen05.cp %t_sfa, %desc_sfa shape_32x128b multicast warpx4
        tcgen05.cp %t_sfb, %desc_sfb shape_32x128b multicast warpx4
        tcgen05.cp %t_sfb2, %desc_sfb2 shape_32x128b multicast warpx4
        %step = arith.muli %k_i32, %c32_i32 : i32
        %a_addr = arith.addi %a_base, %step : i32
        %b_addr = arith.addi %b_base, %step : i32
        %desc_a = tcgen05.smem_desc %a_addr lbo 16 sbo 1024 swizzle_128b
        %desc_b = tcgen05.smem_desc %b_addr lbo 16 sbo 1024 swizzle_128b
        %accumulate = arith.cmpi ne, %k, %c0 : index
        tcgen05.mma mxf4nvf4 %d, %desc_a, %desc_b, %idesc, %accumulate scale_a %t_sfa scale_b %t_sfb scale_vec x4 : i64
      }
      tcgen05.commit %bar : !llvm.ptr<3>
    }
  }

  // 5. wait for the copies and MMAs, read the accumulator, store C
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %tile = tcgen05.tile_load %acc [0, 0] [128, 256] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<256xf32>
  tcgen05.wait load
  %first = arith.muli %row, %c256 : index
  vector.store %tile, %c[%first] : memref<32768xf32>, vector<256xf32>
  func.return
}
