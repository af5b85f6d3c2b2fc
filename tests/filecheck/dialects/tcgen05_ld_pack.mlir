// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// tcgen05.ld pack::16b on every shape: same register count, twice the columns.

// CHECK-LABEL: func.func @ld_pack
func.func @ld_pack(%a: i32) {
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_32x32b x1 pack : vector<1xi32>
  // GENERIC: "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_32x32b>, num = #tcgen05<num x1>, pack}> : (i32) -> vector<1xi32>
  %0 = tcgen05.ld %a shape_32x32b x1 pack : vector<1xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x64b x128 pack : vector<128xi32>
  %1 = tcgen05.ld %a shape_16x64b x128 pack : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x128b x64 pack : vector<128xi32>
  %2 = tcgen05.ld %a shape_16x128b x64 pack : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a shape_16x256b x32 pack : vector<128xi32>
  %3 = tcgen05.ld %a shape_16x256b x32 pack : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = tcgen05.ld %a, offset 2097152 shape_16x32bx2 x4 pack : vector<4xi32>
  // GENERIC: "tcgen05.ld"(%a) <{offset = 2097152 : i64, shape = #tcgen05<shape shape_16x32bx2>, num = #tcgen05<num x4>, pack}> : (i32) -> vector<4xi32>
  %4 = tcgen05.ld %a, offset 2097152 shape_16x32bx2 x4 pack : vector<4xi32>
  // CHECK-NEXT: func.return
  func.return
}
