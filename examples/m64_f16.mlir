// A 64x64 f16 tile in the M=64 TMEM layout (rows 16w..16w+15 in lanes 0-15 of quarter w), moved
// with the 16-lane shapes and pack::16b / unpack::16b. The fragment is the 16x256b one: thread
// (warp w, lane t) holds 32 halves of rows 16w + (t>>2) and 16w + 8 + (t>>2). The tile is a
// tcgen05.buffer: `tmem-plan-columns` gives it 64 columns (the smallest allocation is 32, the
// layout spans 64) and allocates, publishes and frees them.

func.func @m64_f16(%in: memref<4096xf16>, %out: memref<4096xf16>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %tile = tcgen05.buffer : !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  %mine = vector.load %in[%first] : memref<4096xf16>, vector<32xf16>
  tcgen05.tile_store %mine, %tile [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
  %back = tcgen05.tile_load %tile [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]> -> vector<32xf16>
  vector.store %back, %out[%first] : memref<4096xf16>, vector<32xf16>
  func.return
}
