// RUN: tmem-opt %S/../../../examples/tmem_roundtrip.mlir -p tmem-insert-waits -o %t.once.mlir
// RUN: tmem-opt %t.once.mlir -p tmem-insert-waits -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: tmem-opt %S/../../../examples/racy/chunked_epilogue.mlir -p tmem-insert-waits,tmem-insert-waits | filecheck %s
// RUN: tmem-opt %S/../../../examples/chunked_epilogue.mlir -p tmem-plan-columns,tmem-insert-waits,tmem-insert-waits | filecheck %s
// RUN: tmem-opt %S/../../../examples/nvvm_roundtrip.mlir -p tmem-insert-waits -o %t.nvvm.mlir
// RUN: tmem-opt %S/../../../examples/nvvm_roundtrip.mlir -o %t.nvvm.orig.mlir
// RUN: diff %t.nvvm.mlir %t.nvvm.orig.mlir

// tmem-insert-waits is idempotent: a second run changes nothing, and a kernel that already
// has every wait and fence (the shipped NVVM example) is left as it is.

// CHECK-COUNT-2: tcgen05.wait
// CHECK-NOT:     tcgen05.wait
