// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op expects type to be a valid element type for an LLVM global


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : si32

// Path-sensitive: the dealloc is skipped when %early holds.
func.func @leak_on_a_path(%early: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %early {
  } else {
    tcgen05.dealloc %a, 32
  }
  func.return
}

