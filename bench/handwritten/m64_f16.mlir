// Hand-written minimum for the benchmark: examples/m64_f16.mlir with the waits and fences an
// expert writes (bench_passes.py compares tmem-insert-waits against these counts).

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @m64_f16(%in: memref<4096xf16>, %out: memref<4096xf16>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %tile = tcgen05.decl_buffer %base : !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  %mine = vector.load %in[%first] : memref<4096xf16>, vector<32xf16>
  tcgen05.tile_store %mine, %tile [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
  tcgen05.wait store
  %back = tcgen05.tile_load %tile [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]> -> vector<32xf16>
  tcgen05.wait load
  vector.store %back, %out[%first] : memref<4096xf16>, vector<32xf16>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 64
  }
  func.return
}
