// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// tcgen05.st unpack::16b on every shape: same register count, twice the columns.

// CHECK-LABEL: func.func @st_unpack
func.func @st_unpack(%a: i32, %v1: vector<1xi32>, %v4: vector<4xi32>, %v128: vector<128xi32>) {
  // CHECK-NEXT: tcgen05.st %v1, %a shape_32x32b x1 unpack : vector<1xi32>
  // GENERIC: "tcgen05.st"(%v1, %a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x1>, unpack}> : (vector<1xi32>, i32) -> ()
  tcgen05.st %v1, %a shape_32x32b x1 unpack : vector<1xi32>
  // CHECK-NEXT: tcgen05.st %v128, %a shape_16x64b x128 unpack : vector<128xi32>
  tcgen05.st %v128, %a shape_16x64b x128 unpack : vector<128xi32>
  // CHECK-NEXT: tcgen05.st %v128, %a shape_16x128b x64 unpack : vector<128xi32>
  tcgen05.st %v128, %a shape_16x128b x64 unpack : vector<128xi32>
  // CHECK-NEXT: tcgen05.st %v4, %a shape_16x256b x1 unpack : vector<4xi32>
  tcgen05.st %v4, %a shape_16x256b x1 unpack : vector<4xi32>
  // CHECK-NEXT: tcgen05.st %v128, %a, offset 64 shape_16x32bx2 x128 unpack : vector<128xi32>
  // GENERIC: "tcgen05.st"(%v128, %a) <{offset = 64 : i64, shape = #tcgen05<shape shape_16x32bx2>, num = #tcgen05<num x128>, unpack}> : (vector<128xi32>, i32) -> ()
  tcgen05.st %v128, %a, offset 64 shape_16x32bx2 x128 unpack : vector<128xi32>
  // CHECK-NEXT: func.return
  func.return
}
