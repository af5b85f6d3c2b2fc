// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | iree-opt > /dev/null
// REQUIRES: iree-opt

// 1-D vector ops: broadcast is upstream's insertelement into poison + zero-mask shufflevector
// (just the insertelement for vector<1xT>), extract/insert take constant or dynamic positions,
// shuffle and bitcast map one to one; vector arithmetic is scalarized.

// CHECK-LABEL: llvm.func @vectors(%x: i32, %i: i64, %v: vector<4xi32>, %h: vector<8xf16>) -> vector<4xi32> {
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : vector<1xi32>
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[I:.*]] = llvm.insertelement %x, %[[P]][%[[Z]] : i32] : vector<1xi32>
// CHECK-NEXT:    %[[B:.*]] = llvm.shufflevector %[[I]], %[[I]] [0, 0, 0, 0] : vector<1xi32>
// CHECK-NEXT:    %[[P1:.*]] = llvm.mlir.poison : vector<1xi32>
// CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[ONE:.*]] = llvm.insertelement %x, %[[P1]][%[[Z1]] : i32] : vector<1xi32>
// CHECK-NEXT:    %b2 = llvm.shufflevector %[[ONE]], %[[ONE]] [0, 0, 0, 0] : vector<1xi32>
// CHECK-NEXT:    %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:    %e0 = llvm.extractelement %v[%[[C3]] : i32] : vector<4xi32>
// CHECK-NEXT:    %ed = llvm.extractelement %v[%i : i64] : vector<4xi32>
// CHECK-NEXT:    %s = llvm.add %e0, %ed : i32
// CHECK-NEXT:    %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %ins = llvm.insertelement %s, %[[B]][%[[C1]] : i32] : vector<4xi32>
// CHECK-NEXT:    %insd = llvm.insertelement %x, %ins[%i : i64] : vector<4xi32>
// CHECK-NEXT:    %sh = llvm.shufflevector %insd, %b2 [0, 5, 2, 7] : vector<4xi32>
// CHECK-NEXT:    %hb = llvm.bitcast %h : vector<8xf16> to vector<4xi32>
// CHECK-COUNT-4: llvm.add %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.return %{{.*}} : vector<4xi32>
func.func @vectors(%x: i32, %i: index, %v: vector<4xi32>, %h: vector<8xf16>) -> vector<4xi32> {
  %b = vector.broadcast %x : i32 to vector<4xi32>
  %one = vector.broadcast %x : i32 to vector<1xi32>
  %b2 = vector.broadcast %one : vector<1xi32> to vector<4xi32>
  %e0 = vector.extract %v[3] : i32 from vector<4xi32>
  %ed = vector.extract %v[%i] : i32 from vector<4xi32>
  %s = arith.addi %e0, %ed : i32
  %ins = vector.insert %s, %b[1] : i32 into vector<4xi32>
  %insd = vector.insert %x, %ins[%i] : i32 into vector<4xi32>
  %sh = vector.shuffle %insd, %b2 [0, 5, 2, 7] : vector<4xi32>, vector<4xi32>
  %hb = vector.bitcast %h : vector<8xf16> to vector<4xi32>
  %r = arith.addi %sh, %hb : vector<4xi32>
  func.return %r : vector<4xi32>
}
