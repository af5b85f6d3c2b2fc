// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op mismatching result types


llvm.func @returns() -> bf16 attributes {nvvm.kernel} {
  %c = llvm.mlir.constant(0 : i32) : i32
  llvm.return %c : i32
}

