// fuzz finding (issue 14): ptxas-rejects [pipeline-ptx] ptxas <emitted PTX>, line _; fatal   : Parsing error near _: syntax error


// The limits themselves are legal.
llvm.mlir.global internal @fits() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<-1 x i32>
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 8, 4>, nvvm.maxnreg = 64 : i32, nvvm.minctasm = 1 : i32} {
  %p = llvm.mlir.addressof @fits : !llvm.ptr<3>
  llvm.return
}
