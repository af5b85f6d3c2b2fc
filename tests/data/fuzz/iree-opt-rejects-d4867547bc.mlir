// fuzz finding (issue 14): iree-opt-rejects [nvvm] integer value too large


// An unreachable block is not emitted, but an op outside the subset there is still reported.
llvm.func @dead_float(%out: !llvm.ptr<4294967296>, %a: f32) attributes {nvvm.kernel} {
  llvm.return
^dead:
  %b = llvm.fadd %a, %a : f32
  llvm.br ^dead
}
