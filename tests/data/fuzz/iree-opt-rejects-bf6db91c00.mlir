// fuzz finding (issue 14): iree-opt-rejects [nvvm] alignment attribute is not a power of _


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 1025 : i64} : i32

// Different conditions are not correlated: when %a holds and %b does not, the TMEM leaks.
func.func @uncorrelated_conditions(%a: i1, %b: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %a {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  // And when %b holds but %a does not, nothing was allocated.
  scf.if %b {
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    tcgen05.dealloc %t, 32
  }
  func.return
}
