// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// tcgen05.ld with shape 16x128b at every legal num (x1 .. x64):
// 2 register(s) per thread per repetition, at most 128 registers.

// CHECK-LABEL: func.func @ld_16x128b
func.func @ld_16x128b(%a: i32) {
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x1 : vector<2xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x1>}> : (i32) -> vector<2xi32>
  %r1 = tcgen05.ld %a shape_16x128b x1 : vector<2xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x2 : vector<4xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x2>}> : (i32) -> vector<4xi32>
  %r2 = tcgen05.ld %a shape_16x128b x2 : vector<4xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x4 : vector<8xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x4>}> : (i32) -> vector<8xi32>
  %r4 = tcgen05.ld %a shape_16x128b x4 : vector<8xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x8 : vector<16xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x8>}> : (i32) -> vector<16xi32>
  %r8 = tcgen05.ld %a shape_16x128b x8 : vector<16xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x16 : vector<32xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x16>}> : (i32) -> vector<32xi32>
  %r16 = tcgen05.ld %a shape_16x128b x16 : vector<32xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x32 : vector<64xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x32>}> : (i32) -> vector<64xi32>
  %r32 = tcgen05.ld %a shape_16x128b x32 : vector<64xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x64 : vector<128xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x64>}> : (i32) -> vector<128xi32>
  %r64 = tcgen05.ld %a shape_16x128b x64 : vector<128xi32>
  // CHECK-NEXT: func.return
  func.return
}
