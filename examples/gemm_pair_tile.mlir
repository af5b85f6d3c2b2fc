// A 256x256x64 f16 GEMM tile computed by a CTA pair (a cluster of 2, cta_group::2) at the tcgen05
// level: C = A * B^T with A (256 x 64) and B (256 x 64) K-major f16 in global memory, C (256 x 256)
// f32. CTA r (%cluster_ctarank r) holds rows 128r .. 128r + 127 of A and of B, and of D and C.
//   1. every thread copies row 128r + tid of A and of B into its CTA's shared memory with
//      st.shared, in the K-major 128-byte-swizzle layout (16-byte chunk c of row i at chunk
//      c ^ (i % 8), 8-row atoms of 1024 bytes: SBO = 1024), then fence.proxy.async makes those
//      generic-proxy writes visible to the async proxy;
//   2. thread 0 of each CTA initializes its mbarrier (fence.mbarrier_init.release.cluster: the
//      leader's commit arrives on it from the other CTA);
//   3. a cluster barrier: it orders each CTA's operands and mbarrier before the leader's mma and
//      commit read or arrive on them;
//   4. the accumulator is a declared buffer (128 lanes x 256 columns in each CTA): tmem-plan-columns
//      sees the cta_group::2 mmas and writes the pair's allocation right after that cluster barrier
//      (the peer CTA must be running): warp 0 of each CTA allocates 256 columns with cta_group::2
//      (the same columns in both CTAs' TMEM), relinquishes, and publishes the address;
//   5. one elected thread of the leader CTA (rank 0) issues 4 M = 256 cta_group::2 mma k-steps:
//      the tensor core reads A's 128 rows and B's 128 rows from each CTA's shared memory at the
//      same descriptor addresses, and writes D's rows 128r .. into CTA r's TMEM lanes 0..127
//      (PTX ISA 9.7.16.10.5, data path layout A); then it commits with the multicast mask 0b11,
//      so the commit arrives on the mbarrier of both CTAs;
//   6. every thread of both CTAs waits for phase 0 of its CTA's mbarrier, then each CTA's
//      warpgroup reads its 128-row half of D (tile_load) and stores rows 128r .. of C;
//   7. after the last read of D the pass writes a fenced cluster barrier (the peer must still be
//      running, every read of D in both CTAs done), then the pair deallocates.
// tests/data/gemm_pair_tile_hand.mlir is this kernel with the allocation written by hand.
// `tmem-run examples/gemm_pair_tile.mlir --cta-pair --arg ...` runs it (the kernel declares its
// cluster: cluster_dim 2); tests/test_gemm_pair_tile.py compares C with numpy, and
// `tmem-opt examples/gemm_pair_tile.mlir -p tmem-pipeline -t ptx --ptxas-check` assembles it.

llvm.mlir.global internal @mma_done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x f16>

func.func @gemm_pair_tile(%a: memref<16384xf16>, %b: memref<16384xf16>, %c: memref<65536xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c5_i32 = arith.constant 5 : i32
  %c32_i32 = arith.constant 32 : i32
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
  %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32

  // 1. this CTA's halves of A and B, global -> shared, swizzled: row i, 16-byte chunk j goes to
  //    chunk j ^ (i % 8)
  %phase = arith.remui %row, %c8 : index
  %src_row = arith.muli %global_row, %c64 : index
  %dst_row = arith.muli %row, %c64 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %src_chunk = arith.muli %j, %c8 : index
    %swz = arith.xori %j, %phase : index
    %dst_chunk = arith.muli %swz, %c8 : index
    %src = arith.addi %src_row, %src_chunk : index
    %dst = arith.addi %dst_row, %dst_chunk : index
    %dst64 = arith.index_cast %dst : index to i64
    %va = vector.load %a[%src] : memref<16384xf16>, vector<8xf16>
    %pa = llvm.getelementptr %sa[%dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
    llvm.store %va, %pa {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
    %vb = vector.load %b[%src] : memref<16384xf16>, vector<8xf16>
    %pb = llvm.getelementptr %sb[%dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
    llvm.store %vb, %pb {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async

  // 2. the mbarrier the leader's commit arrives on, in each CTA
  %bar = llvm.mlir.addressof @mma_done : !llvm.ptr<3>
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }

  // 3. both CTAs running, operands and mbarriers ready
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned

  // 4. the pair's accumulator: 128 lanes x 256 columns of each CTA's TMEM (allocated by the pass)
  %acc = tcgen05.buffer : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

  // 5. the leader issues the pair's MMAs: M = 256 (128 per CTA), N = 256, K = 4 x 16
  %idesc = tcgen05.instr_desc f16 m 256 n 256 a f16 b f16 d f32
  %leader_warp0 = arith.andi %is_leader, %is_warp0 : i1
  scf.if %leader_warp0 {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %k = %c0 to %c4 step %c1 {
        %k_i32 = arith.index_cast %k : index to i32
        %step = arith.muli %k_i32, %c32_i32 : i32
        %a_addr = arith.addi %a_base, %step : i32
        %b_addr = arith.addi %b_base, %step : i32
        %desc_a = tcgen05.smem_desc %a_addr lbo 16 sbo 1024 swizzle_128b
        %desc_b = tcgen05.smem_desc %b_addr lbo 16 sbo 1024 swizzle_128b
        %accumulate = arith.cmpi ne, %k, %c0 : index
        tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %accumulate cta_group(2) : i64
      }
      tcgen05.commit %bar multicast %both_ctas cta_group(2) : !llvm.ptr<3>
    }
  }

  // 6. each CTA waits for the MMAs on its own mbarrier, reads its half of D, stores its rows of C
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %tile = tcgen05.tile_load %acc [0, 0] [128, 256] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<256xf32>
  tcgen05.wait load
  %first = arith.muli %global_row, %c256 : index
  vector.store %tile, %c[%first] : memref<65536xf32>, vector<256xf32>
  func.return
}
