// fuzz finding (issue 14): internal-error [parse] tmem-opt: internal error: IndexError: tuple index out of range (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)


llvm.func @two_indices(%p: !llvm.ptr<1>, %i: i32) attributes {nvvm.kernel} {
  %q = llvm.getelementptr %p[%i, 2147483648] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.array<4 x i32>
  llvm.return
}

