// fuzz finding (issue 14): internal-error [tmem-verify] tmem-opt: internal error: MemoryError: MemoryError (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)

// tmem-insert-waits over loops and branches: a wait stays out of a loop body when what it
// waits for was issued before the loop, goes into the body when iterations conflict with each
// other, and into a branch only when only that branch needs it.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Stores of disjoint chunks in one loop, loads of them in the next: no wait in either body,
// one wait::st between the loops.
func.func @hoisted() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 2147483648 : index
  %c32 = arith.constant 32 : i32
  %z = arith.constant dense<1> : vector<32xi32>
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 256 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %col = arith.muli %ii, %c32 : i32
    %a = arith.addi %t, %col : i32
    tcgen05.st %z, %a shape_32x32b x32 : vector<32xi32>
  }
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (vector<32xi32>) {
    %ii = arith.index_cast %i : index to i32
    %col = arith.muli %ii, %c32 : i32
    %a = arith.addi %t, %col : i32
    %v = tcgen05.ld %a shape_32x32b x32 : vector<32xi32>
    %n = arith.addi %acc, %v : vector<32xi32>
    scf.yield %n : vector<32xi32>
  }
  tcgen05.dealloc %t, 256
  func.return
}

