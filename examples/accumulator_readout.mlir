// A warpgroup round-trips a 128x256 f32 accumulator tile through TMEM at the warpgroup level:
// tile_store writes each thread's row, tile_load reads it back. The tile is declared by its type
// alone (tcgen05.buffer): `tmem-plan-columns` allocates its 256 columns (warp 0 allocates and
// relinquishes, a fenced barrier publishes the address, the dealloc follows the last use);
// `tmem-assign-lanes` turns the tile ops into per-warp tcgen05.st/ld (32x32b, at most 128
// registers per message, lane base (32*(w%4)) << 16); `tmem-insert-waits` adds the waits and fences.

func.func @accumulator_readout(%in: memref<32768xf32>, %out: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c256 = arith.constant 256 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %acc = tcgen05.buffer : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  // Thread t of the warpgroup holds row t (the default fragment of a 128-row tile).
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c256 : index
  %mine = vector.load %in[%first] : memref<32768xf32>, vector<256xf32>
  tcgen05.tile_store %mine, %acc [0, 0] [128, 256] : vector<256xf32>, !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %back = tcgen05.tile_load %acc [0, 0] [128, 256] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<256xf32>
  vector.store %back, %out[%first] : memref<32768xf32>, vector<256xf32>
  func.return
}
