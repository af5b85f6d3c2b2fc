// Hand-written minimum for the benchmark: examples/accumulator_readout.mlir with the waits and fences an
// expert writes (bench_passes.py compares tmem-insert-waits against these counts).

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @accumulator_readout(%in: memref<32768xf32>, %out: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c256 = arith.constant 256 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 256 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %acc = tcgen05.decl_buffer %base : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  // Thread t of the warpgroup holds row t (the default fragment of a 128-row tile).
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c256 : index
  %mine = vector.load %in[%first] : memref<32768xf32>, vector<256xf32>
  tcgen05.tile_store %mine, %acc [0, 0] [128, 256] : vector<256xf32>, !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  tcgen05.wait store
  %back = tcgen05.tile_load %acc [0, 0] [128, 256] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<256xf32>
  tcgen05.wait load
  vector.store %back, %out[%first] : memref<32768xf32>, vector<256xf32>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 256
  }
  func.return
}
