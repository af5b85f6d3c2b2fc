// A 128x256x64 f16 GEMM tile at the tcgen05 level, one warpgroup: C = A * B^T with A (128 x 64)
// and B (256 x 64) K-major f16 in global memory, C (128 x 256) f32.
//   1. every thread copies its rows of A and B into shared memory with st.shared, in the
//      canonical K-major 128-byte-swizzle layout (16-byte chunk c of row r at chunk c ^ (r % 8),
//      8-row atoms of 1024 bytes: SBO = 1024);
//   2. fence.proxy.async makes those generic-proxy writes visible to the tensor core (async proxy);
//   3. thread 0 initializes the mbarrier; the accumulator D is declared by its type alone
//      (tcgen05.buffer) and the mma takes its address (tcgen05.buffer_address);
//   4. one elected thread issues 4 mma k-steps of K = 16 (the descriptors advance 32 bytes per
//      step inside the swizzle row), the first overwriting D, then commits to the mbarrier;
//   5. every thread waits for phase 0 of the mbarrier, then the warpgroup reads the accumulator
//      (tile_load, one row per thread) and stores it to C.
// `tmem-plan-columns` (part of `tmem-pipeline`) allocates D's 256 columns: warp 0 allocates and
// relinquishes, a fenced barrier publishes the address, the mma gets the planned address, and
// the dealloc follows the tile_load (the last use, after the mbarrier wait that retires the mma).
// `tmem-opt examples/gemm_f16_tile.mlir -p tmem-pipeline -t ptx --ptxas-check` assembles it;
// tmem-run plans it before running. examples/tmem_roundtrip.mlir allocates by hand (the
// low-level path); tests/data/gemm_f16_tile_hand.mlir is this kernel hand-allocated.

llvm.mlir.global internal @mma_done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x f16>

func.func @gemm_f16_tile(%a: memref<8192xf16>, %b: memref<16384xf16>, %c: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
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
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %row = arith.index_cast %tid : i32 to index
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %a_base = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32

  // 1. global -> shared, swizzled: row r, 16-byte chunk j goes to chunk j ^ (r % 8)
  %phase = arith.remui %row, %c8 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %src = arith.muli %j, %c8 : index
    %swz = arith.xori %j, %phase : index
    %dst = arith.muli %swz, %c8 : index
    %a_row = arith.muli %row, %c64 : index
    %a_src = arith.addi %a_row, %src : index
    %a_dst = arith.addi %a_row, %dst : index
    %va = vector.load %a[%a_src] : memref<8192xf16>, vector<8xf16>
    %a_dst64 = arith.index_cast %a_dst : index to i64
    %pa = llvm.getelementptr %sa[%a_dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
    llvm.store %va, %pa {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
    scf.for %half = %c0 to %c256 step %c128 {
      %b_r = arith.addi %row, %half : index
      %b_row = arith.muli %b_r, %c64 : index
      %b_src = arith.addi %b_row, %src : index
      %b_dst = arith.addi %b_row, %dst : index
      %vb = vector.load %b[%b_src] : memref<16384xf16>, vector<8xf16>
      %b_dst64 = arith.index_cast %b_dst : index to i64
      %pb = llvm.getelementptr %sb[%b_dst64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
      llvm.store %vb, %pb {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
    }
  }
  // 2. generic-proxy writes -> async proxy
  tcgen05.fence_proxy_async

  // 3. the mbarrier, and the accumulator (placed in columns by tmem-plan-columns)
  %bar = llvm.mlir.addressof @mma_done : !llvm.ptr<3>
  %acc = tcgen05.buffer : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync

  // 4. one thread issues the MMAs: M = 128, N = 256, K = 4 x 16
  %idesc = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  scf.if %is_warp0 {
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
        tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %accumulate : i64
      }
      tcgen05.commit %bar : !llvm.ptr<3>
    }
  }

  // 5. wait for the MMAs, read the accumulator, store C
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %tile = tcgen05.tile_load %acc [0, 0] [128, 256] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<256xf32>
  tcgen05.wait load
  %first = arith.muli %row, %c256 : index
  vector.store %tile, %c[%first] : memref<32768xf32>, vector<256xf32>
  func.return
}
