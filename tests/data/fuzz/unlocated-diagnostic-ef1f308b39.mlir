// fuzz finding (issue 14): unlocated-diagnostic [nvvm] error: Integer value _ is out of range for type i_ which supports values in the range [-_, _)

// arith -> llvm. index becomes i64. Signed division has no NVVM-level op of its own: it is
// udiv/urem on magnitudes with the sign fixed up by select. min/max become icmp + select.
// Vector arithmetic is scalarized (extractelement, scalar op, insertelement), as NVPTX does.

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


func.func @vectors(%v: vector<4xi32>, %u: vector<4xi32>, %p: vector<4xi1>) -> vector<4xi32> {
  %ones = arith.constant dense<1> : vector<4xi32>
  %idx = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
  %a = arith.addi %v, %ones : vector<4xi32>
  %c = arith.cmpi ult, %a, %u : vector<4xi32>
  %s = arith.select %c, %a, %u : vector<4xi32>
  %i2 = vector.extract %idx[2] : index from vector<4xindex>
  %i2i = arith.index_cast %i2 : index to i32
  %r = vector.insert %i2i, %s[4294967296] : i32 into vector<4xi32>
  %h = arith.bitcast %r : vector<4xi32> to vector<4xf32>
  %back = arith.bitcast %h : vector<4xf32> to vector<4xi32>
  func.return %back : vector<4xi32>
}
