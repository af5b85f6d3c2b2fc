// vector.shuffle takes operands of different lengths; LLVM's shufflevector needs equal ones, so
// the shorter operand is widened (with copies of element 0) and the mask renumbered.
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// RUN: tmem-run %s --kernel widths --threads 32 --arg i32:8=iota --arg i32:8 | filecheck %s --check-prefix=RESULT
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | tmem-run - --kernel widths --threads 32 --arg i32:8=iota --arg i32:8 | filecheck %s --check-prefix=RESULT
// REQUIRES: ptxas

// RESULT: arg1: int32[8] = [0 1 2 3 4 5 0 0]

func.func @widths(%in: memref<8xi32>, %out: memref<8xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %a = vector.load %in[%c0] : memref<8xi32>, vector<2xi32>
  %b = vector.load %in[%c2] : memref<8xi32>, vector<4xi32>
  // CHECK: %[[WIDE:.*]] = llvm.shufflevector %[[A:.*]], %[[A]] [0, 1, 0, 0] : vector<2xi32>
  // CHECK: llvm.shufflevector %[[WIDE]], %{{.*}} [0, 1, 4, 5, 6, 7] : vector<4xi32>
  %s = vector.shuffle %a, %b [0, 1, 2, 3, 4, 5] : vector<2xi32>, vector<4xi32>
  vector.store %s, %out[%c0] : memref<8xi32>, vector<6xi32>
  func.return
}
