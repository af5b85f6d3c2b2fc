// fuzz finding (issue 14): iree-opt-rejects [nvvm] 'nvvm.reqntid' attribute must be integer array (array<si32: ...> was forwarded; now rejected at the function)


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @wrong_size() attributes {tcgen05.kernel, tcgen05.reqntid = array<si32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.dealloc %a, 32
  func.return
}

