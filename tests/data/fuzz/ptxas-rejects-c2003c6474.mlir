// fuzz finding (issue 14): ptxas-rejects [ptx] ptxas <emitted PTX>, line _; error   : Barrier number _ out of range, expected to be in range [_.._]


llvm.func @k() attributes {nvvm.kersgel, nvvm.reqntid = array<i32: 64, 1, 1>} {
  %id = llvm.mlir.constant(16 : i32) : i32
  %n = llvm.mlir.constant(64 : i32) : i32
  nvvm.barrier.arrive id = %id number_of_threads = %n
  llvm.return
}
