// REQUIRES: iree-opt
// RUN: grep -v -e "tcgen05.wait" -e "tcgen05.fence" %S/../../../examples/nvvm_roundtrip.mlir | tmem-opt -p tmem-insert-waits | iree-opt | filecheck %s
// RUN: tmem-opt %S/insert_waits_nvvm.mlir -p tmem-insert-waits | iree-opt | filecheck %s --check-prefix=LOOPS

// Upstream MLIR (iree-opt) parses and verifies what tmem-insert-waits makes of NVVM kernels,
// the tmem.rule attributes included.

// CHECK: nvvm.tcgen05.fence <before> {tmem.rule = "rule 3 (handoff)"}
// CHECK: nvvm.tcgen05.wait <store> {tmem.rule = "rule 2 (store completion)"}
// CHECK: nvvm.tcgen05.wait <load> {tmem.rule = "rule 4 (dealloc)"}
// CHECK: nvvm.tcgen05.fence <after> {tmem.rule = "rule 3 (handoff)"}

// LOOPS: llvm.func @chunks
// LOOPS: nvvm.tcgen05.wait <store> {tmem.rule = "rule 2 (store completion)"}
