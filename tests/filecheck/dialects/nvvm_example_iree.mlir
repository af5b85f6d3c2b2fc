// REQUIRES: iree-opt
// RUN: tmem-opt %S/../../../examples/nvvm_roundtrip.mlir | iree-opt --mlir-print-op-generic > %t.ours
// RUN: iree-opt %S/../../../examples/nvvm_roundtrip.mlir --mlir-print-op-generic > %t.upstream
// RUN: diff %t.ours %t.upstream
// RUN: iree-opt %S/../../../examples/nvvm_roundtrip.mlir | tmem-opt | filecheck %s

// The shipped upstream-NVVM kernel (examples/nvvm_roundtrip.mlir) means the same IR to
// tmem-opt and to upstream MLIR, in both directions.

// CHECK: llvm.func @nvvm_roundtrip(%{{.*}}: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>}
// CHECK: nvvm.tcgen05.alloc
// CHECK: nvvm.tcgen05.st
// CHECK: nvvm.tcgen05.ld
// CHECK: nvvm.tcgen05.dealloc
