// fuzz finding (issue 14): iree-opt-rejects [pipeline-nvvm] _ op symbol's parent must have the SymbolTable trait



// Nested loops: the wait::st goes between the inner loops (out of the inner body, still
// inside the outer one); the next outer iteration's stores meet this iteration's loads, so a
// wait::ld goes before the first inner loop, not into its body.
func.func @nested(%tiles: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 64 : i32
  %z = arith.constant dense<1> : vector<32xi32>
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %c0 to %tiles step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %col = arith.muli %jj, %c32 : i32
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
      %a = arith.addi %t, %col : i32
      tcgen05.st %z, %a shape_32x32b x32 : vector<32xi32>
    }
    scf.for %j = %c0 to %c4 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %col = arith.muli %jj, %c32 : i32
      %a = arith.addi %t, %col : i32
      %v = tcgen05.ld %a shape_32x32b x32 : vector<32xi32>
    }
  }
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 128
  func.return
}

