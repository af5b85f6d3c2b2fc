// REQUIRES: iree-opt
// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s | iree-opt | filecheck %s --check-prefix=UPSTREAM
// RUN: iree-opt %s --mlir-print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s | iree-opt --mlir-print-op-generic > %t.ours
// RUN: iree-opt %s --mlir-print-op-generic > %t.upstream
// RUN: diff %t.ours %t.upstream

// llvm.switch in upstream's custom form (as Triton prints it), its generic form with
// case_values / case_operand_segments, and the same IR after each tool.

// CHECK-LABEL: llvm.func @dispatch
// UPSTREAM-LABEL: llvm.func @dispatch
llvm.func @dispatch(%v: i32, %x: i32, %w: i8) -> i32 {
  // CHECK: llvm.switch %[[V:.*]] : i32, ^[[D:bb[0-9]+]](%[[X:.*]] : i32) [0: ^[[B1:bb[0-9]+]], -7: ^[[B2:bb[0-9]+]](%[[X]], %[[V]] : i32, i32)]
  // UPSTREAM: llvm.switch %[[V:.*]] : i32, ^[[D:bb[0-9]+]](%[[X:.*]] : i32) [
  // UPSTREAM-NEXT: 0: ^bb1,
  // UPSTREAM-NEXT: -7: ^bb2(%[[X]], %[[V]] : i32, i32)
  // UPSTREAM-NEXT: ]
  llvm.switch %v : i32, ^bb3(%x : i32) [
    0: ^bb1,
    -7: ^bb2(%x, %v : i32, i32)
  ]
^bb1:
  // CHECK: llvm.switch %{{.*}} : i8, ^[[D]](%[[V]] : i32) []
  // UPSTREAM: llvm.switch %{{.*}} : i8, ^bb3(%[[V]] : i32) [
  // UPSTREAM-NEXT: ]
  llvm.switch %w : i8, ^bb3(%v : i32) [
  ]
^bb2(%a: i32, %b: i32):
  llvm.return %a : i32
^bb3(%r: i32):
  llvm.return %r : i32
}
