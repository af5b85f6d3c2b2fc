// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op result #_ must be LLVM type with size, but got _


llvm.func @tmem_load(%t: i32) attributes {nvvm.kernel} {
  %p = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %v = llvm.load %p : !llvm.ptr<6> -> si32
  llvm.return
}

