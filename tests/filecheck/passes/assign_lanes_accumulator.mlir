// The shipped 128x256 f32 accumulator readout: every warp stores and loads its lane quarter with
// 2 x 32x32b.x128 (256 registers per thread, at most 128 per message), at (32*(w%4)) << 16.
// RUN: tmem-opt -p tmem-plan-columns,tmem-assign-lanes %S/../../../examples/accumulator_readout.mlir | filecheck %s
// The output is a valid module: it parses and verifies again, and a second run changes nothing.
// RUN: tmem-opt -p tmem-plan-columns,tmem-assign-lanes %S/../../../examples/accumulator_readout.mlir | tmem-opt -p tmem-assign-lanes | filecheck %s

// CHECK-LABEL: func.func @accumulator_readout
// The lane base of the executing warp: ((tid.x >> 5) & 3) << 21 = (32 * (w % 4)) << 16.
// CHECK:      %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT: %[[W:.*]] = arith.shrui %[[TID]], %[[C5]] : i32
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[Q:.*]] = arith.andi %[[W]], %[[C3]] : i32
// CHECK-NEXT: %[[C21:.*]] = arith.constant 21 : i32
// CHECK-NEXT: %[[LB:.*]] = arith.shli %[[Q]], %[[C21]] : i32
// CHECK:      %[[BASE:.*]] = llvm.load
// CHECK-NOT:  tcgen05.decl_buffer
// CHECK:      %[[MINE:.*]] = vector.load

// tile_store: columns 0..127, then 128..255, each from its slice of the row vector.
// CHECK:      %[[A:.*]] = arith.addi %[[BASE]], %[[LB]] : i32
// CHECK-NEXT: %[[S0:.*]] = vector.shuffle %[[MINE]], %[[MINE]] [0, 1, 2, {{.*}}, 126, 127] : vector<256xf32>, vector<256xf32>
// CHECK-NEXT: %[[R0:.*]] = vector.bitcast %[[S0]] : vector<128xf32> to vector<128xi32>
// CHECK-NEXT: tcgen05.st %[[R0]], %[[A]] shape_32x32b x128 : vector<128xi32>
// CHECK-NEXT: %[[S1:.*]] = vector.shuffle %[[MINE]], %[[MINE]] [128, 129, {{.*}}, 254, 255] : vector<256xf32>, vector<256xf32>
// CHECK-NEXT: %[[R1:.*]] = vector.bitcast %[[S1]] : vector<128xf32> to vector<128xi32>
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[A]], %[[C128]] : i32
// CHECK-NEXT: tcgen05.st %[[R1]], %[[A1]] shape_32x32b x128 : vector<128xi32>

// tile_load: two x128 loads, joined into the 256-element row.
// CHECK-NEXT: %[[B:.*]] = arith.addi %[[BASE]], %[[LB]] : i32
// CHECK-NEXT: %[[L0:.*]] = tcgen05.ld %[[B]] shape_32x32b x128 : vector<128xi32>
// CHECK-NEXT: %[[F0:.*]] = vector.bitcast %[[L0]] : vector<128xi32> to vector<128xf32>
// CHECK-NEXT: %[[C128B:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[B1:.*]] = arith.addi %[[B]], %[[C128B]] : i32
// CHECK-NEXT: %[[L1:.*]] = tcgen05.ld %[[B1]] shape_32x32b x128 : vector<128xi32>
// CHECK-NEXT: %[[F1:.*]] = vector.bitcast %[[L1]] : vector<128xi32> to vector<128xf32>
// CHECK-NEXT: %[[ROW:.*]] = vector.shuffle %[[F0]], %[[F1]] [0, 1, {{.*}}, 254, 255] : vector<128xf32>, vector<128xf32>
// CHECK:      vector.store %[[ROW]], %out
// CHECK-NOT:  tcgen05.tile_
// CHECK-NOT:  tcgen05.ld
