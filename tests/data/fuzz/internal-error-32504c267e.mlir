// fuzz finding (issue 14): internal-error [tmem-run] tmem-run: internal error: MemoryError: (_,) (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 2: ld of cells a pending st writes; st over a pending st (PTX 8.6).
func.func @rule2_store_completion() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 4096>} {
  %c2 = arith.constant 2 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  %t2 = arith.addi %t, %c2 : i32
  // Columns 2..5 overlap columns 0..3.
  tcgen05.st %z, %t2 shape_32x32b x4 : vector<4xi32>
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

