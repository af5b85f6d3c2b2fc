// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// nvvm.tcgen05.st in upstream syntax: num is implied by the vector length, so every shape
// appears at x1 and at its largest legal num, with and without unpack; 16x32bx2 takes an i64 offset.

// CHECK-LABEL: llvm.func @st
llvm.func @st(%t: !llvm.ptr<6>, %v1: vector<1xi32>, %v2: vector<2xi32>, %v4: vector<4xi32>, %v128: vector<128xi32>) {
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16{{.*}}) : i64
  %off = llvm.mlir.constant(16 : i64) : i64
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v1 shape = shape_32x32b : vector<1xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v1) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}> : (!llvm.ptr<6>, vector<1xi32>) -> ()
  nvvm.tcgen05.st %t, %v1 shape = shape_32x32b : vector<1xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v1 unpack shape = shape_32x32b : vector<1xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v1) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>, unpack}> : (!llvm.ptr<6>, vector<1xi32>) -> ()
  nvvm.tcgen05.st %t, %v1 unpack shape = shape_32x32b : vector<1xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 shape = shape_32x32b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 shape = shape_32x32b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 unpack shape = shape_32x32b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>, unpack}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 unpack shape = shape_32x32b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v1 shape = shape_16x64b : vector<1xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v1) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>}> : (!llvm.ptr<6>, vector<1xi32>) -> ()
  nvvm.tcgen05.st %t, %v1 shape = shape_16x64b : vector<1xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v1 unpack shape = shape_16x64b : vector<1xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v1) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>, unpack}> : (!llvm.ptr<6>, vector<1xi32>) -> ()
  nvvm.tcgen05.st %t, %v1 unpack shape = shape_16x64b : vector<1xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 shape = shape_16x64b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 shape = shape_16x64b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 unpack shape = shape_16x64b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x64b>, unpack}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 unpack shape = shape_16x64b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v2 shape = shape_16x128b : vector<2xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v2) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>}> : (!llvm.ptr<6>, vector<2xi32>) -> ()
  nvvm.tcgen05.st %t, %v2 shape = shape_16x128b : vector<2xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v2 unpack shape = shape_16x128b : vector<2xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v2) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>, unpack}> : (!llvm.ptr<6>, vector<2xi32>) -> ()
  nvvm.tcgen05.st %t, %v2 unpack shape = shape_16x128b : vector<2xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 shape = shape_16x128b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 shape = shape_16x128b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 unpack shape = shape_16x128b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>, unpack}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 unpack shape = shape_16x128b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v4 shape = shape_16x256b : vector<4xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v4) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>}> : (!llvm.ptr<6>, vector<4xi32>) -> ()
  nvvm.tcgen05.st %t, %v4 shape = shape_16x256b : vector<4xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v4 unpack shape = shape_16x256b : vector<4xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v4) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>, unpack}> : (!llvm.ptr<6>, vector<4xi32>) -> ()
  nvvm.tcgen05.st %t, %v4 unpack shape = shape_16x256b : vector<4xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 shape = shape_16x256b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 shape = shape_16x256b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128 unpack shape = shape_16x256b : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>, unpack}> : (!llvm.ptr<6>, vector<128xi32>) -> ()
  nvvm.tcgen05.st %t, %v128 unpack shape = shape_16x256b : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v1, %[[OFF]] shape = shape_16x32bx2 : vector<1xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v1, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>}> : (!llvm.ptr<6>, vector<1xi32>, i64) -> ()
  nvvm.tcgen05.st %t, %v1, %off shape = shape_16x32bx2 : vector<1xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v1, %[[OFF]] unpack shape = shape_16x32bx2 : vector<1xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v1, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>, unpack}> : (!llvm.ptr<6>, vector<1xi32>, i64) -> ()
  nvvm.tcgen05.st %t, %v1, %off unpack shape = shape_16x32bx2 : vector<1xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128, %[[OFF]] shape = shape_16x32bx2 : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>}> : (!llvm.ptr<6>, vector<128xi32>, i64) -> ()
  nvvm.tcgen05.st %t, %v128, %off shape = shape_16x32bx2 : vector<128xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %t, %v128, %[[OFF]] unpack shape = shape_16x32bx2 : vector<128xi32>
  // GENERIC: "nvvm.tcgen05.st"(%t, %v128, %off) <{shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>, unpack}> : (!llvm.ptr<6>, vector<128xi32>, i64) -> ()
  nvvm.tcgen05.st %t, %v128, %off unpack shape = shape_16x32bx2 : vector<128xi32>
  // CHECK-NEXT: llvm.return
  llvm.return
}
