// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// nvvm.tcgen05.ld in upstream syntax: num is implied by the vector length, so every shape
// appears at x1 and at its largest legal num, with and without pack; 16x32bx2 takes an i64 offset.

// CHECK-LABEL: llvm.func @ld
llvm.func @ld(%t: !llvm.ptr<6>) {
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16{{.*}}) : i64
  %off = llvm.mlir.constant(16 : i64) : i64
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_32x32b : vector<1xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}> : (!llvm.ptr<6>) -> vector<1xi32>
  %r_32x32b_1 = nvvm.tcgen05.ld %t shape = shape_32x32b : vector<1xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_32x32b : vector<1xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>, pack}> : (!llvm.ptr<6>) -> vector<1xi32>
  %r_32x32b_1_p = nvvm.tcgen05.ld %t pack shape = shape_32x32b : vector<1xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_32x32b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_32x32b_128 = nvvm.tcgen05.ld %t shape = shape_32x32b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_32x32b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>, pack}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_32x32b_128_p = nvvm.tcgen05.ld %t pack shape = shape_32x32b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_16x64b : vector<1xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>}> : (!llvm.ptr<6>) -> vector<1xi32>
  %r_16x64b_1 = nvvm.tcgen05.ld %t shape = shape_16x64b : vector<1xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_16x64b : vector<1xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>, pack}> : (!llvm.ptr<6>) -> vector<1xi32>
  %r_16x64b_1_p = nvvm.tcgen05.ld %t pack shape = shape_16x64b : vector<1xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_16x64b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_16x64b_128 = nvvm.tcgen05.ld %t shape = shape_16x64b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_16x64b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>, pack}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_16x64b_128_p = nvvm.tcgen05.ld %t pack shape = shape_16x64b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_16x128b : vector<2xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>}> : (!llvm.ptr<6>) -> vector<2xi32>
  %r_16x128b_1 = nvvm.tcgen05.ld %t shape = shape_16x128b : vector<2xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_16x128b : vector<2xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>, pack}> : (!llvm.ptr<6>) -> vector<2xi32>
  %r_16x128b_1_p = nvvm.tcgen05.ld %t pack shape = shape_16x128b : vector<2xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_16x128b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_16x128b_64 = nvvm.tcgen05.ld %t shape = shape_16x128b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_16x128b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>, pack}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_16x128b_64_p = nvvm.tcgen05.ld %t pack shape = shape_16x128b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_16x256b : vector<4xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>}> : (!llvm.ptr<6>) -> vector<4xi32>
  %r_16x256b_1 = nvvm.tcgen05.ld %t shape = shape_16x256b : vector<4xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_16x256b : vector<4xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>, pack}> : (!llvm.ptr<6>) -> vector<4xi32>
  %r_16x256b_1_p = nvvm.tcgen05.ld %t pack shape = shape_16x256b : vector<4xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t shape = shape_16x256b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_16x256b_32 = nvvm.tcgen05.ld %t shape = shape_16x256b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t pack shape = shape_16x256b : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>, pack}> : (!llvm.ptr<6>) -> vector<128xi32>
  %r_16x256b_32_p = nvvm.tcgen05.ld %t pack shape = shape_16x256b : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t, %[[OFF]] shape = shape_16x32bx2 : vector<1xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>}> : (!llvm.ptr<6>, i64) -> vector<1xi32>
  %r_16x32bx2_1 = nvvm.tcgen05.ld %t, %off shape = shape_16x32bx2 : vector<1xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t, %[[OFF]] pack shape = shape_16x32bx2 : vector<1xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>, pack}> : (!llvm.ptr<6>, i64) -> vector<1xi32>
  %r_16x32bx2_1_p = nvvm.tcgen05.ld %t, %off pack shape = shape_16x32bx2 : vector<1xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t, %[[OFF]] shape = shape_16x32bx2 : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>}> : (!llvm.ptr<6>, i64) -> vector<128xi32>
  %r_16x32bx2_128 = nvvm.tcgen05.ld %t, %off shape = shape_16x32bx2 : vector<128xi32>
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %t, %[[OFF]] pack shape = shape_16x32bx2 : vector<128xi32>
  // GENERIC: %{{.*}} = "nvvm.tcgen05.ld"(%t, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>, pack}> : (!llvm.ptr<6>, i64) -> vector<128xi32>
  %r_16x32bx2_128_p = nvvm.tcgen05.ld %t, %off pack shape = shape_16x32bx2 : vector<128xi32>
  // CHECK-NEXT: llvm.return
  llvm.return
}
