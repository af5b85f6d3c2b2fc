// RUN: iree-opt %s > /dev/null
// RUN: tmem-opt %s -t ptx | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// REQUIRES: iree-opt, ptxas

// Upstream MLIR lets an unreachable block use values no definition dominates (its own later
// results, block arguments of other blocks). Such blocks never run: the PTX target drops them, as
// LLVM does, instead of rejecting valid input. Ops without a PTX spelling are still reported.


// CHECK-LABEL: .visible .entry unreachable(
// CHECK:         ld.param.u8 %rs1, [unreachable_param_1];
// CHECK:         st.global.b32 [%rd2], %r1;
// CHECK-NEXT:    ret;
// CHECK-NOT:     add.s32
// CHECK:       }
llvm.func @unreachable(%out: !llvm.ptr<1>, %c: i1) attributes {nvvm.kernel} {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.cond_br %c, ^same(%c1 : i32), ^same(%c1 : i32)
^same(%x: i32):
  llvm.cond_br %c, ^end, ^end
^dead:
  %a = llvm.add %b, %c1 : i32
  %b = llvm.add %a, %x : i32
  llvm.br ^dead
^end:
  llvm.store %x, %out : i32, !llvm.ptr<1>
  llvm.return
}
