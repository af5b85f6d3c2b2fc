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

// -----

// Inside the span but not in the layout: the M=64 layout holds lanes 0-15 of each lane quarter,
// so lane 16 (the second half of quarter 0) is no cell of the buffer.
!m64 = !tcgen05.tmem<64x64xf32, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
func.func @lane_in_a_gap() {
  %b = tcgen05.buffer : !m64
  // expected-error@+1 {{cell [16, 0] is not in the buffer: its layout S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)] maps no element there}}
  %d = tcgen05.buffer_address %b [16, 0] : !m64
  func.return
}

// -----

// A column-strided layout: columns 0, 2, 4, ... are the buffer's, column 1 is not.
!strided = !tcgen05.tmem<128x8xf32, S[(128, 8) : (1@TLane, 2@TCol)]>
func.func @column_in_a_gap() {
  %b = tcgen05.buffer : !strided
  // expected-error@+1 {{cell [0, 1] is not in the buffer}}
  %d = tcgen05.buffer_address %b [0, 1] : !strided
  func.return
}

// -----

// The first cell is the buffer's, but the shift's 32 lanes x 8 columns run past its 4 columns.
!narrow = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
func.func @shift_past_the_buffer() {
  %b = tcgen05.buffer : !narrow
  // expected-error@+1 {{the 'tcgen05.shift' at this address accesses 32 lanes x 8 columns from [0, 0], but cell [0, 4] is not in the buffer}}
  %d = tcgen05.buffer_address %b [0, 0] : !narrow
  tcgen05.shift %d
  func.return
}

// -----

// A cp.32x128b.warpx4 fills all 128 lanes x 4 columns: from lane 32 it runs past lane 127.
!sf = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
func.func @cp_past_the_buffer(%desc: i64) {
  %b = tcgen05.buffer : !sf
  // expected-error@+1 {{the 'tcgen05.cp' at this address accesses 128 lanes x 4 columns from [32, 0], but cell [128, 0] is not in the buffer}}
  %d = tcgen05.buffer_address %b [32, 0] : !sf
  tcgen05.cp %d, %desc shape_32x128b multicast warpx4
  func.return
}
