// The shipped 64x64 f16 tile in the M=64 layout (rows 16w..16w+15 in lanes 0-15 of quarter w),
// with the 16x256b fragment: one packed 16x256b.x4 per warp (64 halves = 32 columns of 32 bits =
// 4 x 8 columns; 16 registers), and the registers are already in fragment order (no shuffle).
// RUN: tmem-opt -p tmem-plan-columns,tmem-assign-lanes %S/../../../examples/m64_f16.mlir | filecheck %s
// RUN: tmem-opt -p tmem-plan-columns,tmem-assign-lanes %S/../../../examples/m64_f16.mlir | tmem-opt | filecheck %s
// Plain xdsl-opt knows the pass too (the xdsl.universe entry point).
// RUN: xdsl-opt -p tmem-plan-columns,tmem-assign-lanes %S/../../../examples/m64_f16.mlir | filecheck %s

// CHECK-LABEL: func.func @m64_f16
// CHECK:      %[[LB:.*]] = arith.shli %{{.*}}, %{{.*}} : i32
// CHECK:      %[[BASE:.*]] = llvm.load
// CHECK:      %[[MINE:.*]] = vector.load
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[BASE]], %[[LB]] : i32
// CHECK-NEXT: %[[R:.*]] = vector.bitcast %[[MINE]] : vector<32xf16> to vector<16xi32>
// CHECK-NEXT: tcgen05.st %[[R]], %[[A]] shape_16x256b x4 unpack : vector<16xi32>
// CHECK-NEXT: %[[B:.*]] = arith.addi %[[BASE]], %[[LB]] : i32
// CHECK-NEXT: %[[L:.*]] = tcgen05.ld %[[B]] shape_16x256b x4 pack : vector<16xi32>
// CHECK-NEXT: %[[H:.*]] = vector.bitcast %[[L]] : vector<16xi32> to vector<32xf16>
// CHECK:      vector.store %[[H]], %out
// CHECK-NOT:  tcgen05.tile_
// CHECK-NOT:  vector.shuffle
