// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// The shard must be injective: no two logical elements in the same place.

func.func @k(%a: i32) {
  // expected-error@+1 {{malformed layout: the shard is not injective: two logical elements map to the same place}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 0@TCol)]>
  func.return
}

// -----

// Two iters on one axis with overlapping reach: 4 x 4 elements on 7 lanes.
func.func @k(%a: i32) {
  // expected-error@+1 {{the shard is not injective}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<4x4xf32, S[(4, 4) : (1@TLane, 1@TLane)]>
  func.return
}

// -----

// Fewer places than elements on one axis (pigeonhole): 2 x 3 elements, strides 2 and 1, reach columns 0..4 only.
func.func @k(%a: i32) {
  // expected-error@+1 {{the shard is not injective}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<2x3xf32, S[(2, 3) : (2@TCol, 1@TCol)]>
  func.return
}

// -----

// Register fragments are checked the same way.
func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x16xf32, S[(128, 16) : (1@TLane, 1@TCol)]>
  // expected-error@+1 {{malformed layout: the shard is not injective}}
  %t = tcgen05.tile_load %b [0, 0] [128, 16] frag <S[(4, 32, 16) : (1@warpid, 1@warpid, 1)]> : !tcgen05.tmem<128x16xf32, S[(128, 16) : (1@TLane, 1@TCol)]> -> vector<16xf32>
  func.return
}

// -----

// And plain #tcgen05.layout attributes.
// expected-error@+1 {{the shard is not injective}}
"test.op"() {l = #tcgen05.layout<S[(2, 2) : (1, 1)]>} : () -> ()
