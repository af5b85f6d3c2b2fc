// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// A TMEM layout reaches at most lane 127 (TLane extent <= 128), offsets included.

func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: TLane extent 256 exceeds the 128 TMEM lanes}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<256x2xf32, S[(256, 2) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: TLane extent 129 exceeds the 128 TMEM lanes}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x2xf32, S[(128, 2) : (1@TLane, 1@TCol)] + 1@TLane>
  func.return
}

// -----

// Strides count: 4 rows 64 lanes apart reach lane 192.
func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: TLane extent 193 exceeds the 128 TMEM lanes}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<4x8xf32, S[(4, 8) : (64@TLane, 1@TCol)]>
  func.return
}

// -----

// The type is checked wherever it appears, e.g. as a function argument.
// expected-error@+1 {{TLane extent 130 exceeds the 128 TMEM lanes}}
func.func @k(%b: !tcgen05.tmem<2x8xf32, S[(2, 8) : (1@TLane, 1@TCol)] + 128@TLane>) {
  func.return
}
