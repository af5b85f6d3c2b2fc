// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// The scale-factor IDs of tcgen05.instr_desc and the mma that uses them (isa.scale_id_error).

func.func @k() {
  // expected-error@+1 {{kind::f16 has no scale factors (scale_a_id / scale_b_id)}}
  %id = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32 scale_a_id 1
  func.return
}

// -----

func.func @k() {
  // expected-error@+1 {{sparsity selector and scale-factor IDs are 2-bit fields (0-3)}}
  %id = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0 scale_b_id 4
  func.return
}

// -----

// two scale factors per row (mxf4, 2X) sit in a half word: the ID is 0 or 2
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %sa: i32, %sb: i32) {
  %id = tcgen05.instr_desc mxf4 m 128 n 128 a e2m1 b e2m1 scale ue8m0 scale_a_id 1
  // expected-error@+1 {{scale A: with 2 scale factor(s) per row the scale-factor data ID is one of 0, 2, got 1}}
  tcgen05.mma mxf4 %d, %a, %b, %id, %en scale_a %sa scale_b %sb scale_vec x2 : i64
  func.return
}

// -----

// four per row (4X) fill the word: the ID is 0
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %sa: i32, %sb: i32) {
  %id = tcgen05.instr_desc mxf4nvf4 m 128 n 128 a e2m1 b e2m1 scale ue4m3 scale_b_id 2
  // expected-error@+1 {{scale B: with 4 scale factor(s) per row the scale-factor data ID is one of 0, got 2}}
  tcgen05.mma mxf4nvf4 %d, %a, %b, %id, %en scale_a %sa scale_b %sb scale_vec x4 : i64
  func.return
}

// -----

// K = 96 (the descriptor's K-dimension bit, isa.k96_error): the dense cta_group::2 256xNx96
// shape of mxf4 / mxf4nvf4 only (PTX ISA 9.7.16.2.1 Table 39), with .block32 / .block16
func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %sa: i32, %sb: i32) {
  %ok = tcgen05.instr_desc mxf4nvf4 m 256 n 64 a e2m1 b e2m1 scale ue4m3 k96
  tcgen05.mma mxf4nvf4 %d, %a, %b, %ok, %en scale_a %sa scale_b %sb scale_vec block16 cta_group(2) : i64
  %m128 = tcgen05.instr_desc mxf4nvf4 m 128 n 64 a e2m1 b e2m1 scale ue4m3 k96
  // expected-error@+1 {{instruction descriptor: K = 96 is the 256xNx96 shape of cta_group::2 (got M = 128 with cta_group::2)}}
  tcgen05.mma mxf4nvf4 %d, %a, %b, %m128, %en scale_a %sa scale_b %sb scale_vec block16 cta_group(2) : i64
  func.return
}

// -----

func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %sa: i32, %sb: i32) {
  %id = tcgen05.instr_desc mxf4 m 256 n 64 a e2m1 b e2m1 scale ue8m0 k96
  // expected-error@+1 {{instruction descriptor: K = 96 names its block size with .block32 or .block16, got .scale_vec::2X}}
  tcgen05.mma mxf4 %d, %a, %b, %id, %en scale_a %sa scale_b %sb scale_vec x2 cta_group(2) : i64
  func.return
}

// -----

func.func @k() {
  // expected-error@+1 {{kind::mxf8f6f4 has no K-dimension field (K = 96 is mxf4 / mxf4nvf4 only)}}
  %id = tcgen05.instr_desc mxf8f6f4 m 256 n 64 a e4m3 b e4m3 scale ue8m0 k96
  func.return
}
