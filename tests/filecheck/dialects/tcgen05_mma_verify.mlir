// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Every verifier rule of the tcgen05 producer and mbarrier ops, one diagnostic each (isa facts).

// ws exists only with cta_group 1
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{tcgen05.mma.ws exists only with cta_group::1}}
  tcgen05.mma f16 ws %d, %a, %b, %p, %en cta_group(2) : i64
  func.return
}

// -----

// block-scaled kinds have no .ws
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{tcgen05.mma.ws has no kind::mxf8f6f4}}
  tcgen05.mma mxf8f6f4 ws %d, %a, %b, %p, %en scale_a %at scale_b %at : i64
  func.return
}

// -----

// block-scaled kinds need both scale factors
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{kind::mxf8f6f4 needs both scale-factor operands}}
  tcgen05.mma mxf8f6f4 %d, %a, %b, %p, %en scale_a %at : i64
  func.return
}

// -----

// other kinds take none
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{kind::f16 takes no scale factors}}
  tcgen05.mma f16 %d, %a, %b, %p, %en scale_a %at scale_b %at : i64
  func.return
}

// -----

// mxf4nvf4 needs a scale_vec
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{kind::mxf4nvf4 takes}}
  tcgen05.mma mxf4nvf4 %d, %a, %b, %p, %en scale_a %at scale_b %at : i64
  func.return
}

// -----

// mxf4 has no 1X
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{kind::mxf4 takes}}
  tcgen05.mma mxf4 %d, %a, %b, %p, %en scale_a %at scale_b %at scale_vec x1 : i64
  func.return
}

// -----

// scale_vec needs a block-scaled kind
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{needs a block-scaled kind}}
  tcgen05.mma f16 %d, %a, %b, %p, %en scale_vec x2 : i64
  func.return
}

// -----

// block-scaled kinds take no mask
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{takes neither scale-input-d nor disable-output-lane}}
  tcgen05.mma mxf8f6f4 %d, %a, %b, %p, %en scale_a %at scale_b %at mask %m4 : vector<4xi32> : i64
  func.return
}

// -----

// mask length follows cta_group
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{disable-output-lane with cta_group::2 is vector<8xi32>}}
  tcgen05.mma f16 %d, %a, %b, %p, %en mask %m4 : vector<4xi32> cta_group(2) : i64
  func.return
}

// -----

// scale-input-d is f16/tf32 only
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{scale-input-d is allowed only with kind::f16 and kind::tf32}}
  tcgen05.mma f8f6f4 %d, %a, %b, %p, %en scale_input_d 1 : i64
  func.return
}

// -----

// scale-input-d range
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{scale-input-d must be in [0, 15], got 16}}
  tcgen05.mma f16 %d, %a, %b, %p, %en scale_input_d 16 : i64
  func.return
}

// -----

// zero-column mask is .ws only
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{the zero-column mask is an operand of tcgen05.mma.ws only}}
  tcgen05.mma f16 %d, %a, %b, %p, %en zero_columns %a : i64
  func.return
}

// -----

// A is i64 or i32
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{A is a shared-memory descriptor (i64) or a TMEM address (i32)}}
  tcgen05.mma f16 %d, %h, %b, %p, %en : i16
  func.return
}

// -----

// cta_group is 1 or 2
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{cta_group must be 1 or 2, got 3}}
  tcgen05.mma f16 %d, %a, %b, %p, %en cta_group(3) : i64
  func.return
}

// -----

// M from the descriptor
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %id = tcgen05.instr_desc f16 m 64 n 128 a f16 b f16 d f32
  // expected-error@+1 {{instruction descriptor: M = 64 is not legal for kind::f16 with cta_group::2 (M in {128, 256})}}
  tcgen05.mma f16 %d, %a, %b, %id, %en cta_group(2) : i64
  func.return
}

// -----

// N from the descriptor
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %id = tcgen05.instr_desc i8 m 128 n 24 a s8 b s8 d s32
  // expected-error@+1 {{instruction descriptor: N = 24 is not legal for kind::i8 with cta_group::1}}
  tcgen05.mma i8 %d, %a, %b, %id, %en : i64
  func.return
}

// -----

// N from a constant descriptor
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %id = arith.constant 138543120 : i32
  // expected-error@+1 {{N = 264 is not legal}}
  tcgen05.mma f16 %d, %a, %b, %id, %en : i64
  func.return
}

// -----

// sparsity flag and metadata agree
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %id = tcgen05.instr_desc f16 m 128 n 128 a f16 b f16 d f32
  // expected-error@+1 {{sparsity flag and the sparsity metadata operand disagree}}
  tcgen05.mma f16 %d, %a, %b, %id, %en sparse_metadata %at : i64
  func.return
}

// -----

// descriptor operand types per kind
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{kind::f16 has no A type e4m3}}
  %id = tcgen05.instr_desc f16 m 128 n 128 a e4m3 b f16 d f32
  func.return
}

// -----

// bf16 accumulates into f32
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{bf16 inputs accumulate into f32 only}}
  %id = tcgen05.instr_desc f16 m 128 n 128 a bf16 b bf16 d f16
  func.return
}

// -----

// i8 accumulates into s32
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{kind::i8 accumulates into s32, not f32}}
  %id = tcgen05.instr_desc i8 m 128 n 128 a s8 b s8 d f32
  func.return
}

// -----

// block-scaled scale types
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{kind::mxf4 scale factors are ue8m0}}
  %id = tcgen05.instr_desc mxf4 m 128 n 128 a e2m1 b e2m1 scale ue4m3
  func.return
}

// -----

// saturate is i8 only
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{saturate exists for kind::i8 only}}
  %id = tcgen05.instr_desc f16 m 128 n 128 a f16 b f16 d f32 saturate
  func.return
}

// -----

// cp 64x128b needs warpx2
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{tcgen05.cp.64x128b needs a multicast qualifier}}
  tcgen05.cp %d, %a shape_64x128b
  func.return
}

// -----

// cp 128x256b takes no multicast
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{tcgen05.cp.128x256b takes no multicast qualifier}}
  tcgen05.cp %d, %a shape_128x256b multicast warpx4
  func.return
}

// -----

// cp 32x128b takes warpx4 only
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{tcgen05.cp.32x128b takes .warpx4, not .warpx2::01_23}}
  tcgen05.cp %d, %a shape_32x128b multicast warpx2_01_23
  func.return
}

// -----

// LBO granule
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{leading byte offset 8 is not a multiple of 16 bytes}}
  %sd = tcgen05.smem_desc %addr lbo 8 sbo 1024 swizzle_128b
  func.return
}

// -----

// SBO field width
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{stride byte offset 262144 does not fit the 14-bit field}}
  %sd = tcgen05.smem_desc %addr lbo 16 sbo 262144 swizzle_128b
  func.return
}

// -----

// base offset range
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{base offset must be in [0, 7], got 8}}
  %sd = tcgen05.smem_desc %addr lbo 16 sbo 1024 swizzle_128b base_offset 8
  func.return
}

// -----

// start address granule (constant)
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %c = arith.constant 1032 : i32
  // expected-error@+1 {{start address 1032 is not a multiple of 16 bytes}}
  %sd = tcgen05.smem_desc %c lbo 16 sbo 1024 none
  func.return
}

// -----

// mbarrier count
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %z = arith.constant 0 : i32
  // expected-error@+1 {{an mbarrier arrival count must be in [1, 1048575], got 0}}
  tcgen05.mbarrier.init %bar, %z : !llvm.ptr<3>
  func.return
}

// -----

// tx count
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %big = arith.constant 1048576 : i32
  // expected-error@+1 {{a transaction count must be in [0, 1048575], got 1048576}}
  tcgen05.mbarrier.expect_tx %bar, %big : !llvm.ptr<3>
  func.return
}

// -----

// parity
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  %two = arith.constant 2 : i32
  // expected-error@+1 {{a phase parity is 0 or 1, got 2}}
  %r = tcgen05.mbarrier.try_wait %bar, %two : !llvm.ptr<3>, i32
  func.return
}

// -----

// phase type
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{the phase is a parity (i32) or a state token (i64), got i16}}
  %r = tcgen05.mbarrier.test_wait %bar, %h : !llvm.ptr<3>, i16
  func.return
}

// -----

// mbarrier in shared memory
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{an mbarrier lives in shared memory (!llvm.ptr<3>), got !llvm.ptr<1>}}
  tcgen05.mbarrier.inval %gbar : !llvm.ptr<1>
  func.return
}

// -----

// commit's mbarrier
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %bar: !llvm.ptr<3>, %gbar: !llvm.ptr<1>, %at: i32, %m4: vector<4xi32>, %addr: i32, %h: i16, %p: i32) {
  // expected-error@+1 {{an mbarrier lives in shared memory}}
  tcgen05.commit %gbar : !llvm.ptr<1>
  func.return
}

// -----

// the scale-factor data ID leaves room for the row's scale factors (mxf4: 2 per row)
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %at: i32) {
  %id = arith.constant 681575552 : i32
  // expected-error@+1 {{scale A: with 2 scale factor(s) per row the scale-factor data ID is one of 0, 2, got 1}}
  tcgen05.mma mxf4 %d, %a, %b, %id, %en scale_a %at scale_b %at scale_vec x2 : i64
  func.return
}
