// RUN: tmem-opt %s | filecheck %s
// RUN: printf '' | tmem-opt | filecheck %s
// RUN: tmem-opt %s --split-input-file | filecheck %s --check-prefix=SPLIT

// An empty or comment-only input is an empty module, as in mlir-opt and iree-opt, and so is
// the piece after a trailing `// -----`.

// CHECK: builtin.module {
// CHECK-NEXT: }

// SPLIT: builtin.module {
// SPLIT-NEXT: }
// SPLIT: // -----
// SPLIT-NEXT: builtin.module {
// SPLIT-NEXT: }

// -----
