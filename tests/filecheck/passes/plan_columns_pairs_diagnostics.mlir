// tmem-plan-columns writes one allocation for the kernel's one cta_group: a kernel whose tcgen05
// ops mix cta_group::1 and ::2 (ptxas rejects the mix), or whose `tcgen05.cta_group` attribute
// says otherwise than its ops, is an error at the op, with a note where the other group is used.
// RUN: tmem-opt %s --split-input-file --verify-diagnostics -p tmem-plan-columns

!acc = !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
func.func @mixed(%desc: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cluster_dim = array<i32: 2>} {
  %c0_i32 = arith.constant 0 : i32
  %false = arith.constant false
  %acc = tcgen05.buffer : !acc
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %idesc = tcgen05.instr_desc f16 m 256 n 64 a f16 b f16 d f32
  // expected-note@+1 {{cta_group::2 is used here}}
  tcgen05.mma f16 %d, %desc, %desc, %idesc, %false cta_group(2) : i64
  // expected-error@+1 {{tcgen05.commit uses cta_group::1 but this kernel already uses cta_group::2: all tcgen05 instructions of a kernel use the same cta_group}}
  tcgen05.commit %bar : !llvm.ptr<3>
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  %tile = tcgen05.tile_load %acc [0, 0] [128, 64] : !acc -> vector<64xf32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// expected-note@+1 {{cta_group::1 is used here}}
func.func @marked_otherwise(%desc: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cta_group = 1 : i32} {
  %c0_i32 = arith.constant 0 : i32
  %false = arith.constant false
  %acc = tcgen05.buffer : !acc
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %idesc = tcgen05.instr_desc f16 m 256 n 64 a f16 b f16 d f32
  // expected-error@+1 {{tcgen05.mma uses cta_group::2 but this kernel already uses cta_group::1}}
  tcgen05.mma f16 %d, %desc, %desc, %idesc, %false cta_group(2) : i64
  tcgen05.commit %bar cta_group(2) : !llvm.ptr<3>
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  %tile = tcgen05.tile_load %acc [0, 0] [128, 64] : !acc -> vector<64xf32>
  func.return
}

// -----

!tile = !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
// expected-error@+1 {{'tcgen05.cta_group' must be the integer 1 or 2, got 4 : i32}}
func.func @bad_marking(%v: vector<32xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cta_group = 4 : i32} {
  %t = tcgen05.buffer : !tile
  tcgen05.tile_store %v, %t [0, 0] [128, 32] : vector<32xi32>, !tile
  func.return
}
