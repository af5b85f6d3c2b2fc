// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// A TMEM layout reaches at most column 511 (TCol extent <= 512), offsets included.

func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: TCol extent 1024 exceeds the 512 TMEM columns}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x1024xf32, S[(128, 1024) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: TCol extent 556 exceeds the 512 TMEM columns}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)] + 300@TCol>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{malformed TMEM layout: TCol extent 513 exceeds the 512 TMEM columns}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x2xf32, S[(128, 2) : (1@TLane, 512@TCol)]>
  func.return
}
