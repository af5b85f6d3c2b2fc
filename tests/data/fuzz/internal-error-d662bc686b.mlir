// fuzz finding (issue 14): internal-error [parse] kernel.py:_:_: error: internal error in the verifier of _: AssertionError: 
// The body below is iree-opt's own `--mlir-print-op-generic --mlir-print-debuginfo` output
// (iree-base-compiler 3.13.0) for upstream_custom.mlir: generic ops with properties
// (tls_mode, overflowFlags, operand_attrs, unsignedCmp, loop_annotation, 3-segment cond_br) and
// location aliases defined after the module, used before their definition.



#loc3 = loc("kernel.py":5:18)
#loc4 = loc("kernel.py":5:39)
#loc23 = loc("kernel.py":28:16)
#loc24 = loc("kernel.py":28:26)
#loc27 = loc("kernel.py":30:22)
#loop_unroll = #llvm.loop_unroll<disable = true>
#loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
"builtin.module"() ({
  "gpu.module"() <{sym_name = "kernels", targets = [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">]}> ({
    "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr<1>, i32)>, linkage = #llvm.linkage<external>, sym_name = "k", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
    ^bb0(%arg3: !llvm.ptr<1> loc("kernel.py":5:18), %arg4: i32 loc("kernel.py":5:39)):
      %1 = "llvm.mlir.constant"() <{value = 0 : i32}> : () -> i32 loc(#loc5)
      %2 = "llvm.mlir.zero"() : () -> vector<4xi32> loc(#loc6)
      %3 = "llvm.mlir.zero"() : () -> i32 loc(#loc7)
      %4 = "llvm.mlir.zero"() : () -> !llvm.struct<(i32, f32)> loc(#loc8)
      %5 = "llvm.icmp"(%1, %arg4) <{predicate = 2 : i64}> : (i32, i32) -> i1 loc(#loc9)
      "llvm.intr.assume"(%5) <{op_bundle_sizes = array<i32>}> : (i1) -> () loc(#loc10)
      %6 = "llvm.addrspacecast"(%arg3) : (!llvm.ptr<1>) -> !llvm.ptr<6> loc(#loc11)
      %7 = "llvm.trunc"(%arg4) <{overflowFlags = 1 : i32}> : (i32) -> f32 loc(#loc12)
      %8 = "llvm.mlir.constant"() <{value = dense<true> : vector<4xi1>}> : () -> vector<4xi1> loc(#loc13)
      %9 = "llvm.select"(%8, %2, %2) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<4xi1>, vector<4xi32>, vector<4xi32>) -> vector<4xi32> loc(#loc14)
      %10 = "llvm.inline_asm"() <{asm_dialect = 0 : i64, asm_string = "mov.u32 $0, 0;", constraints = "=r", has_side_effects, operand_attrs = [], tail_call_kind = #llvm.tailcallkind<none>}> : () -> i32 loc(#loc15)
      "llvm.br"()[^bb1] <{loop_annotation = #loop_annotation}> : () -> () loc(#loc16)
    ^bb1:  // pred: ^bb0
      "llvm.cond_br"(%5)[^bb2, ^bb3] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> () loc(#loc17)
    ^bb2:  // pred: ^bb1
      "llvm.intr.trap"() : () -> () loc(#loc18)
      "llvm.unreachable"() : () -> () loc(#loc19)
    ^bb3:  // pred: ^bb1
      "llvm.return"() : () -> () loc(#loc20)
    }) {nvvm.kernel} : () -> () loc(#loc2)
  }) : () -> () loc(#loc1)
  "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = i32, linkage = #llvm.linkage<internal>, sym_name = "tls", tls_mode = 1 : i64, unnamed_addr = 0 : i64, value = 0 : i32, visibility_ = 0 : i64}> ({
  }) : () -> () loc(#loc21)
  "func.func"() <{function_type = (i32, i32) -> (), sym_name = "f"}> ({
  ^bb0(%arg0: i32 loc("kernel.py":28:16), %arg1: i32 loc("kernel.py":28:26)):
    %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc(#loc25)
    "scf.for"(%arg0, %arg1, %0) <{unsignedCmp}> ({
    ^bb0(%arg2: i32 loc("kernel.py":30:22)):
      "scf.yield"() : () -> () loc(#loc26)
    }) : (i32, i32, i32) -> () loc(#loc26)
    "func.return"() : () -> () loc(#loc28)
  }) : () -> () loc(#loc22)
}) {gpu.container_module} : () -> () loc(#loc)
#loc = loc("kernel.py":3:1)
#loc1 = loc("kernel.py":4:3)
#loc2 = loc("kernel.py":5:5)
#loc5 = loc("kernel.py":6:13)
#loc6 = loc("kernel.py":7:12)
#loc7 = loc("kernel.py":8:13)
#loc8 = loc("kernel.py":9:13)
#loc9 = loc("kernel.py":10:12)
#loc10 = loc("kernel.py":11:7)
#loc11 = loc("kernel.py":12:12)
#loc12 = loc("kernel.py":13:13)
#loc13 = loc("kernel.py":14:12)
#loc14 = loc("kernel.py":15:12)
#loc15 = loc("kernel.py":16:12)
#loc16 = loc("kernel.py":17:7)
#loc17 = loc("kernel.py":19:7)
#loc18 = loc("kernel.py":21:7)
#loc19 = loc("kernel.py":22:7)
#loc20 = loc("kernel.py":24:7)
#loc21 = loc("kernel.py":27:3)
#loc22 = loc("kernel.py":28:3)
#loc25 = loc("kernel.py":29:11)
#loc26 = loc("kernel.py":30:5)
#loc28 = loc("kernel.py":32:5)

