// tmem-plan-columns on buffers taken by address: it refuses to free columns under an
// asynchronous access nothing observes, and addresses that flow through other ops.
// RUN: tmem-opt %s --split-input-file --verify-diagnostics -p tmem-plan-columns

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @last_use_is_the_mma(%a: i64, %b: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %false = arith.constant false
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %idesc = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  // expected-error@+1 {{the last use of this TMEM buffer is an asynchronous 'tcgen05.mma' that no tcgen05.commit and mbarrier wait follow}}
  tcgen05.mma f16 %d, %a, %b, %idesc, %false : i64
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
func.func @committed_but_never_waited(%a: i64, %b: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %false = arith.constant false
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %idesc = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  // expected-error@+1 {{asynchronous 'tcgen05.mma' that no tcgen05.commit and mbarrier wait follow}}
  tcgen05.mma f16 %d, %a, %b, %idesc, %false : i64
  tcgen05.commit %bar : !llvm.ptr<3>
  func.return
}

// -----

!sf = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
func.func @cp_never_observed(%desc: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  // expected-note@+1 {{the buffer is declared here}}
  %sf = tcgen05.buffer : !sf
  %t = tcgen05.buffer_address %sf [0, 0] : !sf
  // expected-error@+1 {{asynchronous 'tcgen05.cp'}}
  tcgen05.cp %t, %desc shape_32x128b multicast warpx4
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @address_through_arith(%a: i64, %b: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %false = arith.constant false
  %c4 = arith.constant 4 : i32
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  // expected-note@+1 {{the address is taken here}}
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  // expected-error@+1 {{the TMEM address of a buffer flows on through 'arith.muli'}}
  %d4 = arith.muli %d, %c4 : i32
  func.return
}

// -----

// An offset added at run time must be bounded: a kernel argument is not.
!acc = !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
func.func @unbounded_offset(%col: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  // expected-note@+1 {{the address is taken here}}
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  // expected-error@+1 {{tmem-plan-columns cannot bound the offset added to this TMEM buffer's address}}
  %at = arith.addi %d, %col : i32
  // expected-note@+1 {{the access}}
  %v = tcgen05.ld %at shape_32x32b x8 : vector<8xi32>
  func.return
}

// -----

// Bounded, but past the buffer: chunk 3 of 8 columns reads columns 24-39 of a 32-column buffer.
!acc = !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
func.func @offset_past_the_buffer() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8_i32 = arith.constant 8 : i32
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  // expected-note@+1 {{the address is taken here}}
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  scf.for %k = %c0 to %c4 step %c1 {
    %k_i32 = arith.index_cast %k : index to i32
    %col = arith.muli %k_i32, %c8_i32 : i32
    // expected-error@+1 {{the 'tcgen05.ld' at this address may reach columns 0 to 39 of the buffer, which spans 32 columns}}
    %at = arith.addi %d, %col : i32
    // expected-note@+1 {{the access}}
    %v = tcgen05.ld %at shape_32x32b x16 : vector<16xi32>
  }
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @address_into_a_loop(%n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  // expected-note@+1 {{the address is taken here}}
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  // expected-error@+1 {{the TMEM address of a buffer flows on through 'scf.for'}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %d) -> (i32) {
    scf.yield %x : i32
  }
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @address_freed_by_hand() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  // expected-note@+1 {{the address is taken here}}
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  // expected-error@+1 {{the TMEM address of a buffer flows on through 'tcgen05.dealloc'}}
  tcgen05.dealloc %d, 256
  func.return
}
