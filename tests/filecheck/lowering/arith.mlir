// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | iree-opt > /dev/null
// REQUIRES: iree-opt

// arith -> llvm. index becomes i64. Signed division has no NVVM-level op of its own: it is
// udiv/urem on magnitudes with the sign fixed up by select. min/max become icmp + select.
// Vector arithmetic is scalarized (extractelement, scalar op, insertelement), as NVPTX does.

// CHECK-LABEL: llvm.func @scalar(%a: i32, %b: i32, %i: i64, %w: i64) -> i32 {
// CHECK-NEXT:    %c5 = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT:    %t = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    %f = llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK-NEXT:    %add = llvm.add %a, %b : i32
// CHECK-NEXT:    %sub = llvm.sub %add, %c5 : i32
// CHECK-NEXT:    %mul = llvm.mul %sub, %b : i32
// CHECK-NEXT:    %du = llvm.udiv %mul, %b : i32
// CHECK-NEXT:    %ru = llvm.urem %du, %b : i32
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[ANEG:.*]] = llvm.icmp "slt" %ru, %[[Z]] : i32
// CHECK-NEXT:    %[[NA:.*]] = llvm.sub %[[Z]], %ru : i32
// CHECK-NEXT:    %[[ABSA:.*]] = llvm.select %[[ANEG]], %[[NA]], %ru : i1, i32
// CHECK-NEXT:    %[[BNEG:.*]] = llvm.icmp "slt" %b, %[[Z]] : i32
// CHECK-NEXT:    %[[NB:.*]] = llvm.sub %[[Z]], %b : i32
// CHECK-NEXT:    %[[ABSB:.*]] = llvm.select %[[BNEG]], %[[NB]], %b : i1, i32
// CHECK-NEXT:    %[[Q:.*]] = llvm.udiv %[[ABSA]], %[[ABSB]] : i32
// CHECK-NEXT:    %[[DIFF:.*]] = llvm.xor %[[ANEG]], %[[BNEG]] : i1
// CHECK-NEXT:    %[[NQ:.*]] = llvm.sub %[[Z]], %[[Q]] : i32
// CHECK-NEXT:    %[[DS:.*]] = llvm.select %[[DIFF]], %[[NQ]], %[[Q]] : i1, i32
// CHECK:         %[[R:.*]] = llvm.urem %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[NR:.*]] = llvm.sub %{{.*}}, %[[R]] : i32
// CHECK-NEXT:    %[[RS:.*]] = llvm.select %{{.*}}, %[[NR]], %[[R]] : i1, i32
// CHECK-NEXT:    %and = llvm.and %[[RS]], %a : i32
// CHECK-NEXT:    %or = llvm.or %and, %a : i32
// CHECK-NEXT:    %xor = llvm.xor %or, %a : i32
// CHECK-NEXT:    %shl = llvm.shl %xor, %c5 : i32
// CHECK-NEXT:    %shr = llvm.lshr %shl, %c5 : i32
// CHECK-NEXT:    %sar = llvm.ashr %shr, %c5 : i32
// CHECK-NEXT:    %[[GT:.*]] = llvm.icmp "sgt" %sar, %a : i32
// CHECK-NEXT:    %[[MX:.*]] = llvm.select %[[GT]], %sar, %a : i1, i32
// CHECK-NEXT:    %[[LT:.*]] = llvm.icmp "ult" %[[MX]], %b : i32
// CHECK-NEXT:    %[[MN:.*]] = llvm.select %[[LT]], %[[MX]], %b : i1, i32
// CHECK-NEXT:    %cmp = llvm.icmp "sge" %[[MN]], %a : i32
// CHECK-NEXT:    %both = llvm.and %cmp, %t : i1
// CHECK-NEXT:    %sel = llvm.select %both, %[[MN]], %a : i1, i32
// CHECK-NEXT:    %ii = llvm.sext %sel : i32 to i64
// CHECK-NEXT:    %sum = llvm.add %ii, %i : i64
// CHECK-NEXT:    %back = llvm.trunc %sum : i64 to i32
// CHECK-NEXT:    %z = llvm.zext %back : i32 to i64
// CHECK-NEXT:    %s = llvm.sext %back : i32 to i64
// CHECK-NEXT:    %zs = llvm.add %z, %s : i64
// CHECK-NEXT:    %zw = llvm.add %zs, %w : i64
// CHECK-NEXT:    %tr = llvm.trunc %zw : i64 to i32
// CHECK-NEXT:    %bits = llvm.bitcast %f : f32 to i32
// CHECK-NEXT:    %res = llvm.add %tr, %bits : i32
// CHECK-NEXT:    llvm.return %res : i32
// CHECK-NEXT:  }
func.func @scalar(%a: i32, %b: i32, %i: index, %w: i64) -> i32 {
  %c5 = arith.constant 5 : i32
  %t = arith.constant true
  %f = arith.constant 1.5 : f32
  %add = arith.addi %a, %b : i32
  %sub = arith.subi %add, %c5 : i32
  %mul = arith.muli %sub, %b : i32
  %du = arith.divui %mul, %b : i32
  %ru = arith.remui %du, %b : i32
  %ds = arith.divsi %ru, %b : i32
  %rs = arith.remsi %ds, %b : i32
  %and = arith.andi %rs, %a : i32
  %or = arith.ori %and, %a : i32
  %xor = arith.xori %or, %a : i32
  %shl = arith.shli %xor, %c5 : i32
  %shr = arith.shrui %shl, %c5 : i32
  %sar = arith.shrsi %shr, %c5 : i32
  %mx = arith.maxsi %sar, %a : i32
  %mn = arith.minui %mx, %b : i32
  %cmp = arith.cmpi sge, %mn, %a : i32
  %both = arith.andi %cmp, %t : i1
  %sel = arith.select %both, %mn, %a : i32
  %ii = arith.index_cast %sel : i32 to index
  %sum = arith.addi %ii, %i : index
  %back = arith.index_cast %sum : index to i32
  %z = arith.extui %back : i32 to i64
  %s = arith.extsi %back : i32 to i64
  %zs = arith.addi %z, %s : i64
  %zw = arith.addi %zs, %w : i64
  %tr = arith.trunci %zw : i64 to i32
  %bits = arith.bitcast %f : f32 to i32
  %res = arith.addi %tr, %bits : i32
  func.return %res : i32
}

// CHECK-LABEL: llvm.func @vectors(
// CHECK-NEXT:    %ones = llvm.mlir.constant(dense<1> : vector<4xi32>) : vector<4xi32>
// CHECK-NEXT:    %idx = llvm.mlir.constant(dense<[0, 1, 2, 3]> : vector<4xi64>) : vector<4xi64>
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : vector<4xi32>
// CHECK-NEXT:    %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[V0:.*]] = llvm.extractelement %v[%[[I0]] : i32] : vector<4xi32>
// CHECK-NEXT:    %[[O0:.*]] = llvm.extractelement %ones[%[[I0]] : i32] : vector<4xi32>
// CHECK-NEXT:    %[[S0:.*]] = llvm.add %[[V0]], %[[O0]] : i32
// CHECK-NEXT:    %{{.*}} = llvm.insertelement %[[S0]], %[[P]][%[[I0]] : i32] : vector<4xi32>
// CHECK-COUNT-3: llvm.add
// CHECK:         %[[A:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi32>
// CHECK-NEXT:    %[[CP:.*]] = llvm.mlir.poison : vector<4xi1>
// CHECK:         llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-4: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK:         %[[I2:.*]] = llvm.extractelement %idx[%{{.*}} : i32] : vector<4xi64>
// CHECK-NEXT:    %i2i = llvm.trunc %[[I2]] : i64 to i32
// CHECK:         %r = llvm.insertelement %i2i, %{{.*}}[%{{.*}} : i32] : vector<4xi32>
// CHECK-NEXT:    %h = llvm.bitcast %r : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %[[BACK:.*]] = llvm.bitcast %h : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:    llvm.return %[[BACK]] : vector<4xi32>
// CHECK-NOT:     arith.

func.func @vectors(%v: vector<4xi32>, %u: vector<4xi32>, %p: vector<4xi1>) -> vector<4xi32> {
  %ones = arith.constant dense<1> : vector<4xi32>
  %idx = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
  %a = arith.addi %v, %ones : vector<4xi32>
  %c = arith.cmpi ult, %a, %u : vector<4xi32>
  %s = arith.select %c, %a, %u : vector<4xi32>
  %i2 = vector.extract %idx[2] : index from vector<4xindex>
  %i2i = arith.index_cast %i2 : index to i32
  %r = vector.insert %i2i, %s[0] : i32 into vector<4xi32>
  %h = arith.bitcast %r : vector<4xi32> to vector<4xf32>
  %back = arith.bitcast %h : vector<4xf32> to vector<4xi32>
  func.return %back : vector<4xi32>
}
