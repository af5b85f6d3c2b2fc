// fuzz finding (issue 14): internal-error [tmem-run] _ error: interpreter internal error while executing _ in warp _: KeyError: <OpResult[i_] name_hint: t, index: _, operation: llvm.load, uses: _>


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Batching (as ThunderKittens does): four loads, then one wait::ld covers them all before
// the st that rewrites the cells of the first.
func.func @batch() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c24 = arith.constant 24 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %a = tcgen05.ld %t shape_32x32b x8 : vector<8xi32>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %t8 = arith.addi %t, %c8 : i32
  %t16 = arith.addi %t, %c16 : i32
  %t24 = arith.addi %t, %c24 : i32
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %b = tcgen05.ld %t8 shape_32x32b x8 : vector<8xi32>
  %c = tcgen05.ld %t16 shape_32x32b x8 : vector<8xi32>
  %d = tcgen05.ld %t24 shape_32x32b x8 : vector<8xi32>
  tcgen05.st %a, %t shape_32x32b x8 : vector<8xi32>
  tcgen05.st %b, %t8 shape_32x32b x8 : vector<8xi32>
  tcgen05.st %c, %t16 shape_32x32b x8 : vector<8xi32>
  tcgen05.st %d, %t24 shape_32x32b x8 : vector<8xi32>
  tcgen05.dealloc %t, 32
  func.return
}
