// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// tcgen05.st with shape 32x32b at every legal num (x1 .. x128):
// 1 register(s) per thread per repetition, at most 128 registers.

// CHECK-LABEL: func.func @st_32x32b
func.func @st_32x32b(%a: i32, %v1: vector<1xi32>, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>, %v16: vector<16xi32>, %v32: vector<32xi32>, %v64: vector<64xi32>, %v128: vector<128xi32>) {
  // CHECK-NEXT: tcgen05.st %v1, %a shape_32x32b x1 : vector<1xi32>
  // GENERIC: "tcgen05.st"(%v1, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x1>}> : (vector<1xi32>, i32) -> ()
  tcgen05.st %v1, %a shape_32x32b x1 : vector<1xi32>
  // CHECK-NEXT: tcgen05.st %v2, %a shape_32x32b x2 : vector<2xi32>
  // GENERIC: "tcgen05.st"(%v2, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x2>}> : (vector<2xi32>, i32) -> ()
  tcgen05.st %v2, %a shape_32x32b x2 : vector<2xi32>
  // CHECK-NEXT: tcgen05.st %v4, %a shape_32x32b x4 : vector<4xi32>
  // GENERIC: "tcgen05.st"(%v4, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x4>}> : (vector<4xi32>, i32) -> ()
  tcgen05.st %v4, %a shape_32x32b x4 : vector<4xi32>
  // CHECK-NEXT: tcgen05.st %v8, %a shape_32x32b x8 : vector<8xi32>
  // GENERIC: "tcgen05.st"(%v8, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x8>}> : (vector<8xi32>, i32) -> ()
  tcgen05.st %v8, %a shape_32x32b x8 : vector<8xi32>
  // CHECK-NEXT: tcgen05.st %v16, %a shape_32x32b x16 : vector<16xi32>
  // GENERIC: "tcgen05.st"(%v16, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x16>}> : (vector<16xi32>, i32) -> ()
  tcgen05.st %v16, %a shape_32x32b x16 : vector<16xi32>
  // CHECK-NEXT: tcgen05.st %v32, %a shape_32x32b x32 : vector<32xi32>
  // GENERIC: "tcgen05.st"(%v32, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x32>}> : (vector<32xi32>, i32) -> ()
  tcgen05.st %v32, %a shape_32x32b x32 : vector<32xi32>
  // CHECK-NEXT: tcgen05.st %v64, %a shape_32x32b x64 : vector<64xi32>
  // GENERIC: "tcgen05.st"(%v64, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x64>}> : (vector<64xi32>, i32) -> ()
  tcgen05.st %v64, %a shape_32x32b x64 : vector<64xi32>
  // CHECK-NEXT: tcgen05.st %v128, %a shape_32x32b x128 : vector<128xi32>
  // GENERIC: "tcgen05.st"(%v128, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x128>}> : (vector<128xi32>, i32) -> ()
  tcgen05.st %v128, %a shape_32x32b x128 : vector<128xi32>
  // CHECK-NEXT: func.return
  func.return
}
