// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ attribute must be integer constant


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The freed address comes from a kernel argument: which allocation is it?
func.func @unknown_dealloc(%t: i32) attributes {tcgen05.kernel, nvvm.maxnreg = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.dealloc %t, 32
  func.return
}

