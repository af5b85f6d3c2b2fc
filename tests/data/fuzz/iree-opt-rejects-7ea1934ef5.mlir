// fuzz finding (issue 14): iree-opt-rejects [nvvm] 'llvm.load' op unsupported type 'i1' for atomic access (now rejected first, at the op)


llvm.func @atomic(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %v = llvm.load %p atomic monotonic <alignment = 0> : !llvm.ptr<1> -> i1
  llvm.return
}

