// fuzz finding (issue 14): internal-error [tmem-run] tmem-run: internal error: RuntimeError: can't start new thread (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @after_relinquish() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 4096, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %a = llvm.load %s : !llvm.ptr<3> -> i32

  tcgen05.alloc %s2, 32 : !llvm.ptr<3>
  %b = llvm.load %s2 : !llvm.ptr<3> -> i32
  tcgen05.dealloc %b, 32
  tcgen05.dealloc %a, 64
  func.return
}

