// RUN: tmem-opt %s -p lift-inline-asm 2>&1 | filecheck %s
// RUN: not tmem-opt %s -p lift-inline-asm,tmem-verify 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFY
// lift-inline-asm: Triton-style inline asm becomes nvvm ops (operands $N by constraint, `n` as
// constants, outputs from the registers' final values), so tmem-verify sees the TMEM work. Guarded
// asm (`@$2`, Triton's form) splits the block around it. Asm it cannot lift (here an in/out '+r'
// operand) stays, with a warning because it mentions tcgen05.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %true = llvm.mlir.constant(true) : i1
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$0], $1;", "r,n" %slot, %c32 : (!llvm.ptr<3>, i32) -> ()
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.st.sync.aligned.32x32b.x1.b32 [$0], {$1};", "r,r" %base, %tid : (i32, i32) -> ()
  %v = llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.ld.sync.aligned.32x32b.x1.b32 {$0}, [$1];", "=r,r" %base : (i32) -> i32
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.wait::ld.sync.aligned;", "" : () -> ()
  %p = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %v, %p : i32, !llvm.ptr<1>
  nvvm.barrier
  %inout = llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.ld.sync.aligned.32x32b.x1.b32 {$0}, [$0];", "+r" %base : (i32) -> i32
  llvm.inline_asm has_side_effects asm_dialect = att "@$2 tcgen05.dealloc.cta_group::1.sync.aligned.b32 $0, $1;", "r,n,b" %base, %c32, %true : (i32, i32, i1) -> ()
  llvm.return
}

// CHECK:      lift_inline_asm.mlir:24:3: warning: inline asm with TMEM or mbarrier instructions was not lifted (in/out ('+') or unmatched constraints)
// CHECK:      nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK:      nvvm.tcgen05.st %{{.*}}, %{{.*}} shape = shape_32x32b : vector<1xi32>
// CHECK:      %[[LD:.*]] = nvvm.tcgen05.ld %{{.*}} shape = shape_32x32b : vector<1xi32>
// CHECK-NEXT: llvm.mlir.constant(0 : i32)
// CHECK-NEXT: %[[V:.*]] = llvm.extractelement %[[LD]]
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK:      llvm.store %[[V]], %{{.*}} : i32, !llvm.ptr<1>
// CHECK:      llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.ld.sync.aligned.32x32b.x1.b32 {$0}, [$0];", "+r"
// CHECK:      llvm.cond_br %{{.*}}, ^[[GUARDED:.*]], ^[[AFTER:.*]]
// CHECK:      ^[[GUARDED]]:
// CHECK:      nvvm.tcgen05.dealloc
// CHECK:      llvm.br ^[[AFTER]]
// CHECK:      ^[[AFTER]]:
// CHECK-NEXT: llvm.br ^[[REST:.*]]
// CHECK:      ^[[REST]]:
// CHECK-NEXT: llvm.return

// VERIFY: lift_inline_asm.mlir:19:3: error: nvvm.tcgen05.ld reads TMEM cells that an outstanding nvvm.tcgen05.st of the same warp still writes: tcgen05.wait::st must come between them (rule 2 (store completion))
