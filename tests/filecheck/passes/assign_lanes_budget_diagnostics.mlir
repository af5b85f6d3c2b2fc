// A budget below a layout's only shape: the note names the registers that shape needs.
// RUN: tmem-opt %s --verify-diagnostics -p 'tmem-assign-lanes{regs-per-message=2}'

!m64 = !tcgen05.tmem<64x64xf32, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
func.func @m64(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !m64
  // expected-error@+6 {{no tcgen05.ld shape can move element [0, 0]}}
  // expected-note@+5 {{16x256b: needs 4 registers per message, more than the budget of 2}}
  // expected-note@+4 {{16x128b: it gives lane 0, column 1 (element [0, 1]) to thread 1, but the register fragment gives that element to thread 0}}
  // expected-note@+3 {{16x64b: it gives}}
  // expected-note@+2 {{32x32b: it gives lane 1, column 0 (element [1, 0]) to thread 1, but the register fragment gives that element to thread 4}}
  // expected-note@+1 {{16x32bx2: it gives lane 1, column 0 (element [1, 0]) to thread 1, but the register fragment gives that element to thread 4}}
  %r = tcgen05.tile_load %buf [0, 0] [64, 64] frag <S[(4, 2, 8, 8, 4, 2) : (1@warpid, 2, 4@laneid, 4, 1@laneid, 1)]> : !m64 -> vector<32xf32>
  func.return %r : vector<32xf32>
}
