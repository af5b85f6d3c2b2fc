// tmem-plan-columns reports, at the op, what it cannot plan; over budget, the error sits at the
// point of peak pressure with a note at each buffer live there.
// RUN: tmem-opt %s --split-input-file --verify-diagnostics -p tmem-plan-columns

!big = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
!mid = !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
func.func @over_budget(%v: vector<256xf32>, %w: vector<128xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  // expected-note@+1 {{this buffer requires 256 columns (lanes)}}
  %a = tcgen05.buffer : !big
  // expected-note@+1 {{this buffer requires 256 columns (lanes)}}
  %b = tcgen05.buffer : !big
  // expected-note@+1 {{this buffer requires 128 columns (lanes)}}
  %c = tcgen05.buffer : !mid
  tcgen05.tile_store %v, %a [0, 0] [128, 256] : vector<256xf32>, !big
  tcgen05.tile_store %v, %b [0, 0] [128, 256] : vector<256xf32>, !big
  // expected-error@+1 {{TMEM buffers live here require 640 columns, 512 available}}
  tcgen05.tile_store %w, %c [0, 0] [128, 128] : vector<128xf32>, !mid
  %x = tcgen05.tile_load %a [0, 0] [128, 256] : !big -> vector<256xf32>
  %y = tcgen05.tile_load %b [0, 0] [128, 256] : !big -> vector<256xf32>
  %z = tcgen05.tile_load %c [0, 0] [128, 128] : !mid -> vector<128xf32>
  func.return
}

// -----

!big = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
// max-columns is not given here: tcgen05.no_reuse keeps two buffers with disjoint lifetimes apart.
func.func @no_reuse_over_budget(%v: vector<256xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  // expected-note@+1 {{this buffer requires 256 columns (lanes), never shared (tcgen05.no_reuse)}}
  %a = tcgen05.buffer {tcgen05.no_reuse} : !big
  // expected-note@+1 {{this buffer requires 256 columns (lanes), never shared (tcgen05.no_reuse)}}
  %b = tcgen05.buffer {tcgen05.no_reuse} : !big
  // expected-note@+1 {{this buffer requires 256 columns (lanes)}}
  %c = tcgen05.buffer : !big
  tcgen05.tile_store %v, %a [0, 0] [128, 256] : vector<256xf32>, !big
  tcgen05.tile_store %v, %b [0, 0] [128, 256] : vector<256xf32>, !big
  // expected-error@+1 {{TMEM buffers live here require 768 columns, 512 available}}
  tcgen05.tile_store %v, %c [0, 0] [128, 256] : vector<256xf32>, !big
  func.return
}

// -----

!t = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @hand_allocated(%v: vector<32xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the hand-written allocation}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  // expected-error@+1 {{tmem-plan-columns cannot add an allocation to a function that allocates TMEM by hand}}
  %a = tcgen05.buffer : !t
  tcgen05.tile_store %v, %a [0, 0] [128, 32] : vector<32xf32>, !t
  func.return
}

// -----

!t = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
func.func @flows_into_a_loop(%v: vector<32xf32>, %n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note@+1 {{the buffer is declared here}}
  %a = tcgen05.buffer : !t
  // expected-error@+1 {{the TMEM buffer flows on through 'scf.for'; tmem-plan-columns needs every use to name the tcgen05.buffer directly}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%b = %a) -> (!t) {
    scf.yield %b : !t
  }
  func.return
}

// -----

// expected-error@+1 {{'tcgen05.no_reuse' is a unit attribute (no value), got 1 : i64}}
%a = tcgen05.buffer {tcgen05.no_reuse = 1} : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
