// Every tile op tmem-assign-lanes cannot serve gets an error at the op that says why.
// RUN: tmem-opt %s --split-input-file --verify-diagnostics -p tmem-assign-lanes

!acc = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
func.func @buffer_argument(%buf: !acc) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  // expected-error@+1 {{the tile's buffer comes from a block argument; tmem-assign-lanes needs it to come from tcgen05.decl_buffer}}
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] : !acc -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// -----

!acc = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
func.func @unknown_lanes(%base: i32, %lane: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %a = arith.addi %base, %lane : i32
  // expected-note@+1 {{the buffer is declared here}}
  %buf = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{cannot tell which TMEM lanes this buffer starts at}}
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] : !acc -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// -----

!acc = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
func.func @store_replicas(%base: i32, %v: vector<64xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !acc
  // expected-error@+1 {{replicates elements: a tile_store would write one cell from several registers}}
  tcgen05.tile_store %v, %buf [0, 0] [128, 32] frag <S[(4, 32, 32) : (1@warpid, 1@laneid, 1)] + R[2 : 32]> : vector<64xf32>, !acc
  func.return
}

// -----

!rows = !tcgen05.tmem<64x32xf32, S[(64, 32) : (1@TLane, 1@TCol)]>
func.func @thread_replicas(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !rows
  // expected-error@+1 {{a TMEM cell reaches one thread of one warp, so only copies within a thread's registers (R[...] on m) can be made}}
  %r = tcgen05.tile_load %buf [0, 0] [64, 32] frag <S[(2, 32, 32) : (1@warpid, 1@laneid, 1)] + R[2 : 2@warpid]> : !rows -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// -----

!rows = !tcgen05.tmem<32x32xf32, S[(32, 32) : (1@TLane, 1@TCol)]>
func.func @outside_lane_quarter(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !rows
  // Rows 8..15 go to warp 1, but they live in lanes 8..15, in warp 0's quarter.
  // expected-error@+1 {{the register fragment gives element [8, 0] to warp 1 of the warpgroup, but the element lives in TMEM lane 8: warp 1 can only access lanes 32..63}}
  %r = tcgen05.tile_load %buf [0, 0] [32, 32] frag <S[(4, 8, 32) : (1@warpid, 1@laneid, 1)]> : !rows -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// -----

!acc = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
// expected-note@+1 {{the block size is declared here}}
func.func @block_too_small(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !acc
  // expected-error@+1 {{the register fragment needs warps 0..3 of the warpgroup, but the block has only 64 threads}}
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] : !acc -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// -----

!acc = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
// expected-note@+1 {{the block size is declared here}}
func.func @block_2d(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 2, 1>} {
  %buf = tcgen05.decl_buffer %base : !acc
  // expected-error@+1 {{needs the block's x extent to be a multiple of 128 when y or z exceeds 1 (the block is 64x2x1)}}
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] : !acc -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// -----

// Thread t holds column t (a transposed fragment): every shape gives a lane's cells to one
// thread, so none fits; each shape says which thread it would deliver to.
!rows = !tcgen05.tmem<32x32xf32, S[(32, 32) : (1@TLane, 1@TCol)]>
func.func @transposed(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !rows
  // expected-error@+6 {{no tcgen05.ld shape can move element [0, 0] (TMEM lane 0, buffer column 0) to register 0 of thread 0 of warp 0 of the warpgroup}}
  // expected-note@+5 {{16x256b: it gives lane 0, column 1 (element [0, 1]) to thread 0, but the register fragment gives that element to thread 1}}
  // expected-note@+4 {{16x128b: it gives lane 1, column 0 (element [1, 0]) to thread 4, but the register fragment gives that element to thread 0}}
  // expected-note@+3 {{16x64b: it gives lane 8, column 0 (element [8, 0]) to thread 1, but the register fragment gives that element to thread 0}}
  // expected-note@+2 {{32x32b: it gives lane 1, column 0 (element [1, 0]) to thread 1, but the register fragment gives that element to thread 0}}
  // expected-note@+1 {{16x32bx2: it gives lane 1, column 0 (element [1, 0]) to thread 1, but the register fragment gives that element to thread 0}}
  %r = tcgen05.tile_load %buf [0, 0] [32, 32] frag <S[(32, 32) : (1, 1@laneid)]> : !rows -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// -----

// The M=64 layout with one row per thread: threads 16-31 own nothing, so no 32-thread message
// fits (a store would overwrite cells with their registers).
!m64 = !tcgen05.tmem<64x64xf32, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
func.func @idle_threads(%base: i32, %v: vector<64xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !m64
  // expected-error@+6 {{no tcgen05.st shape can move element [0, 0] (TMEM lane 0, buffer column 0) to register 0 of thread 0 of warp 0}}
  // expected-note@+5 {{16x256b: it gives lane 8, column 0 (element [8, 0]) to thread 0, but the register fragment gives that element to thread 8}}
  // expected-note@+4 {{16x128b: it gives lane 8, column 0 (element [8, 0]) to thread 0}}
  // expected-note@+3 {{16x64b: it gives lane 8, column 0 (element [8, 0]) to thread 1}}
  // expected-note@+2 {{32x32b: thread 16 would access lane 16, column 0, which holds no element of this tile}}
  // expected-note@+1 {{16x32bx2: thread 16 holds no register 0 to pair with thread 0's (16x32bx2 moves register r of threads t and t+16 together)}}
  tcgen05.tile_store %v, %buf [0, 0] [64, 64] frag <S[(4, 16, 64) : (1@warpid, 1@laneid, 1)]> : vector<64xf32>, !m64
  func.return
}

// -----

// 16-bit data: the packed kinds are tried first, then the unpacked ones; all ten explain.
!h = !tcgen05.tmem<32x32xf16, S[(32, 32) : (1@TLane, 1@TCol)]>
func.func @transposed_f16(%base: i32) -> vector<32xf16> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !h
  // expected-error@+11 {{no tcgen05.ld shape can move element [0, 0]}}
  // expected-note@+10 {{16x256b pack::16b: it gives lane 0, column 1 (element [0, 1]) to thread 0}}
  // expected-note@+9 {{16x128b pack::16b: it gives}}
  // expected-note@+8 {{16x64b pack::16b: it gives}}
  // expected-note@+7 {{32x32b pack::16b: it gives lane 0, column 1 (element [0, 1]) to thread 0, but the register fragment gives that element to thread 1}}
  // expected-note@+6 {{16x32bx2 pack::16b: it gives}}
  // expected-note@+5 {{16x256b: it gives}}
  // expected-note@+4 {{16x128b: it gives}}
  // expected-note@+3 {{16x64b: it gives}}
  // expected-note@+2 {{32x32b: it gives}}
  // expected-note@+1 {{16x32bx2: it gives}}
  %r = tcgen05.tile_load %buf [0, 0] [32, 32] frag <S[(32, 32) : (1, 1@laneid)]> : !h -> vector<32xf16>
  func.return %r : vector<32xf16>
}

// -----

// Only the tile ops that can be served are not enough: the module is left untouched and every
// unservable tile op is reported.
!rows = !tcgen05.tmem<32x32xf32, S[(32, 32) : (1@TLane, 1@TCol)]>
func.func @two_errors(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !rows
  %ok = tcgen05.tile_load %buf [0, 0] [32, 32] frag <S[(32, 32) : (1@laneid, 1)]> : !rows -> vector<32xf32>
  // expected-error@+1 {{warp 1 can only access lanes 32..63}}
  %bad1 = tcgen05.tile_load %buf [0, 0] [32, 32] frag <S[(2, 16, 32) : (1@warpid, 1@laneid, 1)]> : !rows -> vector<32xf32>
  // expected-error@+1 {{warp 3 can only access lanes 96..127}}
  %bad2 = tcgen05.tile_load %buf [0, 0] [32, 32] frag <S[(32, 32) : (1@laneid, 1)] + 3@warpid> : !rows -> vector<32xf32>
  func.return %ok : vector<32xf32>
}
