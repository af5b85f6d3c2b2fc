// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// TMEM buffer types: static positive dimensions and 16- or 32-bit elements.

func.func @k(%a: i32) {
  // expected-error@+1 {{TMEM buffer dimensions must be static and positive, got 0x256}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<0x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{TMEM buffer dimensions must be static and positive, got ?x4}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<?x4xf32, S[(4, 4) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{TMEM buffer elements must be 16 or 32 bits wide, got f64}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf64, S[(128, 256) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{TMEM buffer elements must be 16 or 32 bits wide, got i8}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x4xi8, S[(128, 4) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{TMEM buffer elements must be 16 or 32 bits wide, got index}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x4xindex, S[(128, 4) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

// decl_buffer produces a TMEM buffer type, nothing else.
func.func @k(%a: i32) {
  // expected-error@+1 {{i32 should be of base attribute tcgen05.tmem}}
  %b = "tcgen05.decl_buffer"(%a) : (i32) -> i32
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{Expected ','}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32>
  func.return
}
