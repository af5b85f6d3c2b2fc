// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Register fragments of tile ops: well formed, the region's size, and the register type they imply.

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{a 64x16 region has no default register fragment (only 128-row regions do); give one with `frag <S[...]>`}}
  %t = tcgen05.tile_load %b [0, 0] [64, 16] : !acc -> vector<16xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{register fragment covers 1024 elements but the region has 2048}}
  %t = tcgen05.tile_load %b [0, 0] [128, 16] frag <S[(4, 32, 8) : (1@warpid, 1@laneid, 1)]> : !acc -> vector<16xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{malformed register fragment: warpid extent 8 exceeds the 4 warps of a warpgroup}}
  %t = tcgen05.tile_load %b [0, 0] [128, 16] frag <S[(8, 16, 16) : (1@warpid, 1@laneid, 1)]> : !acc -> vector<16xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{malformed register fragment: laneid extent 64 exceeds the 32 lanes of a warp}}
  %t = tcgen05.tile_load %b [0, 0] [128, 16] frag <S[(2, 64, 16) : (1@warpid, 1@laneid, 1)]> : !acc -> vector<16xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{each thread holds 16 elements of this fragment, so the register value must be vector<16xf32>, got vector<8xf32>}}
  %t = tcgen05.tile_load %b [0, 0] [128, 16] : !acc -> vector<8xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32, %v: vector<16xi32>) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{so the register value must be vector<16xf32>, got vector<16xi32>}}
  tcgen05.tile_store %v, %b [0, 0] [128, 16] : vector<16xi32>, !acc
  func.return
}

// -----

// A strided fragment needs registers up to its largest index: 2 * 3 + 1 = 7.
!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{each thread holds 7 elements of this fragment, so the register value must be vector<7xf32>, got vector<4xf32>}}
  %t = tcgen05.tile_load %b [0, 0] [128, 4] frag <S[(4, 32, 4) : (1@warpid, 1@laneid, 2)]> : !acc -> vector<4xf32>
  func.return
}
