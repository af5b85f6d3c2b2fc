// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op symbol's parent must have the SymbolTable trait
// Spellings the corpus (tests/corpus) exposed: CuTe DSL's llvm.intr.assume with an "align" operand
// bundle and llvm.intr.fshr, Triton's nvvm.fence.proxy with its properties in an attr-dict (an
// older MLIR's form), and Triton's fused<#di_subprogram> locations with #llvm.di_* metadata aliases
// after the module (the metadata is debug info: the locations keep their file positions), and its
// `llvm.mlir.constant(0 : index) : i32` and `nvvm.kernel = 1 : ui1`, printed in today's form.
llvm.func @old() attributes {nvvm.kernel = 1 : ui1} {
llvm.func @k(%c: i1, %p: !llvm.ptr<3>, %a: i64, %x: i32) -> i32 {
  llvm.intr.assume %c ["align"(%p, %a : !llvm.ptr<3>, i64)] : i1
  llvm.intr.assume %c : i1
  %r = llvm.intr.fshr(%x, %x, %x) : (i32, i32, i32) -> i32 loc(#loc2)
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  llvm.return %r : i32
} loc(#loc2)

  %0 = llvm.mlir.constant(0 : index) : i32
  llvm.return
}
#loc1 = loc("kernels.py":17:1)
#di_file = #llvm.di_file<"kernels.py" in "">
#di_subprogram = #llvm.di_subprogram<id = distinct[0]<>, compileUnit = #di_compile_unit, scope = #di_file, name = "k", file = #di_file, line = 17>
#loc2 = loc(fused<#di_subprogram>[#loc1])

