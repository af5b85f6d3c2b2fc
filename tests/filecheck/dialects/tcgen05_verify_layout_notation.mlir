// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Errors in the replica R[...] and offset parts of the notation, and in extents and strides.

// A TMEM buffer has one cell per element: no replica.
func.func @k(%a: i32) {
  // expected-error@+1 {{a TMEM buffer layout cannot replicate (R[...]): every element has one cell}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)] + R[2 : 256@TCol]>
  func.return
}

// -----

// expected-error@+1 {{malformed layout: replica extent must be positive, got 0}}
"test.op"() {l = #tcgen05.layout<S[32 : 1@laneid] + R[0 : 1@warpid]>} : () -> ()

// -----

// expected-error@+1 {{malformed layout: replica stride must be non-negative, got -2}}
"test.op"() {l = #tcgen05.layout<S[32 : 1@laneid] + R[2 : -2@warpid]>} : () -> ()

// -----

// expected-error@+1 {{malformed layout: shard extent must be positive, got -4}}
"test.op"() {l = #tcgen05.layout<S[(-4, 2) : (1@TLane, 1@TCol)]>} : () -> ()

// -----

// expected-error@+1 {{malformed layout: shard stride must be non-negative, got -1}}
"test.op"() {l = #tcgen05.layout<S[(4, 2) : (1@TLane, -1@TCol)]>} : () -> ()

// -----

// expected-error@+1 {{malformed layout: offset on TCol must be non-negative, got -8}}
"test.op"() {l = #tcgen05.layout<S[(4, 2) : (1@TLane, 1@TCol)] + -8@TCol>} : () -> ()

// -----

// expected-error@+1 {{malformed layout: layout value 99999999999999999999 is out of range (at most 2147483647)}}
"test.op"() {l = #tcgen05.layout<S[99999999999999999999 : 1@TLane]>} : () -> ()

// -----

// expected-error@+1 {{Expected integer literal (layout offset)}}
"test.op"() {l = #tcgen05.layout<S[4 : 1@TLane] + Q[2 : 1@TCol]>} : () -> ()

// -----

// expected-error@+1 {{Expected 'S' to start a layout shard S[...]}}
"test.op"() {l = #tcgen05.layout<R[2 : 1@TCol]>} : () -> ()

// -----

// expected-error@+1 {{Expected integer literal}}
"test.op"() {l = #tcgen05.layout<S[]>} : () -> ()
