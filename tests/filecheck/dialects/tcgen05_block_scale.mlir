// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// The scale-factor A / B IDs of a block-scaled instruction descriptor (PTX ISA 9.7.16.4.2 bits
// 29-30 and 4-5; 9.7.16.10.7.2/.3): named fields of tcgen05.instr_desc, printed as written.

func.func @k(%d: i32, %a: i64, %b: i64, %en: i1, %sa: i32, %sb: i32) {
  // CHECK: %id = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 3 scale_b_id 1
  %id = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0 scale_a_id 3 scale_b_id 1
  // CHECK: tcgen05.instr_desc mxf4 m 128 n 128 a e2m1 b e2m1 scale ue8m0 scale_b_id 2
  %id2 = tcgen05.instr_desc mxf4 m 128 n 128 a e2m1 b e2m1 scale ue8m0 scale_b_id 2
  // CHECK: tcgen05.mma mxf8f6f4 %d, %a, %b, %id, %en scale_a %sa scale_b %sb scale_vec x1 : i64
  tcgen05.mma mxf8f6f4 %d, %a, %b, %id, %en scale_a %sa scale_b %sb scale_vec x1 : i64
  // CHECK: tcgen05.mma mxf4 %d, %a, %b, %id2, %en scale_a %sa scale_b %sb scale_vec x2 : i64
  tcgen05.mma mxf4 %d, %a, %b, %id2, %en scale_a %sa scale_b %sb scale_vec x2 : i64
  func.return
}
