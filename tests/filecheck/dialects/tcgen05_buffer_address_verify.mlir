// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// The [lane, column] of tcgen05.buffer_address lies inside the buffer's layout.

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @column_past_the_end() {
  %acc = tcgen05.buffer : !acc
  // expected-error@+1 {{column offset 256 is outside the buffer, which spans 256 columns (from 0 to 255)}}
  %d = tcgen05.buffer_address %acc [0, 256] : !acc
  func.return
}

// -----

!m64 = !tcgen05.tmem<64x64xf32, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
func.func @lane_past_the_layout() {
  %b = tcgen05.buffer : !m64
  // expected-error@+1 {{lane offset 112 is outside the buffer, which spans 112 lanes (from 0 to 111)}}
  %d = tcgen05.buffer_address %b [112, 0] : !m64
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @negative() {
  %acc = tcgen05.buffer : !acc
  // expected-error@+1 {{lane offset -1 is outside the buffer}}
  %d = tcgen05.buffer_address %acc [-1, 0] : !acc
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @three_offsets() {
  %acc = tcgen05.buffer : !acc
  // expected-error@+1 {{the offset is [lane, column], got 3 value(s)}}
  %d = tcgen05.buffer_address %acc [0, 0, 0] : !acc
  func.return
}

// -----

func.func @not_a_buffer(%x: i32) {
  // expected-error@+1 {{}}
  %d = "tcgen05.buffer_address"(%x) <{offsets = array<i64: 0, 0>}> : (i32) -> i32
  func.return
}
