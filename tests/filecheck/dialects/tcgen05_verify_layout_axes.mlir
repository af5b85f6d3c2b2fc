// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Layout axes: TLane/TCol for TMEM, warpid/laneid/m for register fragments; nothing else.

func.func @k(%a: i32) {
  // expected-error@+1 {{unknown layout axis 'Foo' (expected one of TLane, TCol, warpid, laneid, m)}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@Foo)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{unknown layout axis 'tlane'}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128xf32, S[128 : 1@TLane] + 4@tlane>
  func.return
}

// -----

// A register axis cannot place a TMEM buffer.
func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: axis 'laneid' is not allowed here (expected one of TLane, TCol)}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@laneid, 1@TCol)]>
  func.return
}

// -----

// A stride without an axis is on m, a register axis.
func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: axis 'm' is not allowed here (expected one of TLane, TCol)}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x4xf32, S[(128, 4) : (1@TLane, 1)]>
  func.return
}

// -----

// A TMEM axis cannot place a register fragment.
func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x16xf32, S[(128, 16) : (1@TLane, 1@TCol)]>
  // expected-error@+1 {{malformed register fragment: axis 'TCol' is not allowed here (expected one of warpid, laneid, m)}}
  %t = tcgen05.tile_load %b [0, 0] [128, 16] frag <S[(4, 32, 16) : (1@warpid, 1@laneid, 1@TCol)]> : !tcgen05.tmem<128x16xf32, S[(128, 16) : (1@TLane, 1@TCol)]> -> vector<16xf32>
  func.return
}

// -----

// Extents and strides must pair up.
func.func @k(%a: i32) {
  // expected-error@+1 {{layout has 2 extents but 1 strides; they must pair up}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane)]>
  func.return
}
