// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | iree-opt > /dev/null
// REQUIRES: iree-opt

// memref and vector memory access: a memref is a bare pointer to its first element
// (!llvm.ptr<1> for global buffers, !llvm.ptr<3> for shared memory); indices are linearized
// with the static strides (xDSL's helpers from convert-memref-to-ptr), plus a strided
// layout's static offset, into one getelementptr. Vector accesses carry the element's
// alignment (all a memref access is known to have). A shared memref.global becomes an
// addr_space 3 llvm.mlir.global (an !llvm.array when it has more than one element).

// CHECK:       llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<32 x f32>
// CHECK-LABEL: llvm.func @memory(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %s: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK:         %[[S1:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[R1:.*]] = llvm.mul %c1, %[[S1]] : i64
// CHECK-NEXT:    %[[L1:.*]] = llvm.add %[[R1]], %c2 : i64
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %a[%[[L1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %x = llvm.load %[[P1]] : !llvm.ptr<1> -> i32
// CHECK:         %[[P2:.*]] = llvm.getelementptr %a[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    llvm.store %x, %[[P2]] : i32, !llvm.ptr<1>
// CHECK-NEXT:    %[[P3:.*]] = llvm.getelementptr %b[%c2] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT:    %h = llvm.load %[[P3]] <alignment = 2> : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NEXT:    llvm.store %h, %b <alignment = 2> : vector<8xf16>, !llvm.ptr<1>
// CHECK-NEXT:    %[[S4:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[R4:.*]] = llvm.mul %c1, %[[S4]] : i64
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[L4:.*]] = llvm.add %[[R4]], %[[OFF]] : i64
// CHECK-NEXT:    %[[P4:.*]] = llvm.getelementptr %s[%[[L4]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %y = llvm.load %[[P4]] : !llvm.ptr<1> -> i32
// CHECK:         %t = llvm.mlir.addressof @tile : !llvm.ptr<3>
// CHECK:         %{{.*}} = llvm.getelementptr %t[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %f = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:         %v = llvm.load %{{.*}} <alignment = 4> : !llvm.ptr<3> -> vector<4xf32>
// CHECK:         llvm.store %v, %{{.*}} <alignment = 4> : vector<4xf32>, !llvm.ptr<3>
// CHECK:         llvm.store %f, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT:    llvm.return
// CHECK-NOT:   memref.
// CHECK-NOT:   vector.
// CHECK-NOT:   unrealized_conversion_cast
"memref.global"() <{sym_name = "tile", sym_visibility = "private", type = memref<4x8xf32, 3>, initial_value}> : () -> ()

func.func @memory(%a: memref<4x8xi32>, %b: memref<?xf16, 1>, %s: memref<8xi32, strided<[2], offset: 3>>) attributes {tcgen05.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.load %a[%c1, %c2] : memref<4x8xi32>
  memref.store %x, %a[%c2, %c1] : memref<4x8xi32>
  %h = vector.load %b[%c2] : memref<?xf16, 1>, vector<8xf16>
  vector.store %h, %b[%c0] : memref<?xf16, 1>, vector<8xf16>
  %y = memref.load %s[%c1] : memref<8xi32, strided<[2], offset: 3>>
  memref.store %y, %s[%c0] : memref<8xi32, strided<[2], offset: 3>>
  %t = memref.get_global @tile : memref<4x8xf32, 3>
  %f = memref.load %t[%c1, %c1] : memref<4x8xf32, 3>
  %v = vector.load %t[%c2, %c0] : memref<4x8xf32, 3>, vector<4xf32>
  vector.store %v, %t[%c0, %c0] : memref<4x8xf32, 3>, vector<4xf32>
  memref.store %f, %t[%c0, %c0] : memref<4x8xf32, 3>
  func.return
}
