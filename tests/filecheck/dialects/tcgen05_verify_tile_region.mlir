// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// A tile region lies inside its buffer and has one offset and size per dimension.

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{region [250, 266) of dimension 1 is outside the buffer extent 256}}
  %t = tcgen05.tile_load %b [0, 250] [128, 16] : !acc -> vector<16xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32, %v: vector<16xf32>) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{region [-1, 127) of dimension 0 is outside the buffer extent 128}}
  tcgen05.tile_store %v, %b [-1, 0] [128, 16] : vector<16xf32>, !acc
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32, %v: vector<16xf32>) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{region [0, 0) of dimension 1 is outside the buffer extent 256}}
  tcgen05.tile_store %v, %b [0, 0] [128, 0] : vector<16xf32>, !acc
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{region needs 2 offsets and sizes for a rank-2 buffer, got 1 and 1}}
  %t = tcgen05.tile_load %b [0] [128] : !acc -> vector<16xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // expected-error@+1 {{region needs 2 offsets and sizes for a rank-2 buffer, got 2 and 3}}
  %t = tcgen05.tile_load %b [0, 0] [128, 16, 1] : !acc -> vector<16xf32>
  func.return
}
