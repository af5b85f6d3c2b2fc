// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// The layout shard partitions exactly the buffer's elements.

func.func @k(%a: i32) {
  // expected-error@+1 {{layout shard covers 16384 elements but the buffer 128x256 has 32768}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{layout shard covers 64 elements but the buffer 4x4 has 16}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<4x4xi32, S[(4, 16) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{layout shard covers 32 elements but the buffer 2x8x4 has 64}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<2x8x4xi32, S[(8, 4) : (1@TLane, 1@TCol)]>
  func.return
}
