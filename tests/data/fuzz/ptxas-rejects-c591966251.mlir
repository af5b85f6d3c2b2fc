// fuzz finding (issue 14): ptxas-rejects [pipeline-ptx] ptxas _ line _; error   : Alignment must be a power of two


llvm.mlir.global private @slot() {addr_space = 3 : i32, alignment = 48 : i64} : i32

// The freed address comes from a kernel argument: which allocation is it?
func.func @unknown_dealloc(%t: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.dealloc %t, 32
  func.return
}

