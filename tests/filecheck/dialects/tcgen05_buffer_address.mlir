// RUN: tmem-opt %s --split-input-file | filecheck %s
// RUN: tmem-opt %s --split-input-file --print-op-generic | tmem-opt --split-input-file | filecheck %s
// RUN: tmem-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// tcgen05.buffer_address: the i32 TMEM address of a buffer's cell at [lane, column], for the
// ops that take raw addresses (mma D / A / scale factors, cp).

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
!sf = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @addresses
func.func @addresses(%a: i64, %b: i64, %en: i1, %desc: i64) {
  %acc = tcgen05.buffer : !acc
  %sfa = tcgen05.buffer : !sf
  %sfb = tcgen05.buffer : !sf
  // CHECK: %d = tcgen05.buffer_address %acc [0, 0] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  // GENERIC: "tcgen05.buffer_address"(%{{.*}}) <{offsets = array<i64: 0, 0>}> : (!tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>) -> i32
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  // CHECK: %half = tcgen05.buffer_address %acc [32, 128] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %half = tcgen05.buffer_address %acc [32, 128] : !acc
  %t_sfa = tcgen05.buffer_address %sfa [0, 0] : !sf
  %t_sfb = tcgen05.buffer_address %sfb [0, 0] : !sf
  // CHECK: tcgen05.cp %t_sfa, %desc shape_128x128b
  tcgen05.cp %t_sfa, %desc shape_128x128b
  %id = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0
  // CHECK: tcgen05.mma mxf8f6f4 %d, %a, %b, %id, %en scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
  tcgen05.mma mxf8f6f4 %d, %a, %b, %id, %en scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
  func.return
}
