// RUN: iree-opt %S/upstream_custom.mlir | tmem-opt | iree-opt > /dev/null
// RUN: tmem-opt %S/upstream_custom.mlir --print-op-generic | iree-opt > /dev/null
// RUN: tmem-opt %S/upstream_generic.mlir | iree-opt > /dev/null
// RUN: tmem-opt %S/upstream_generic.mlir --print-op-generic | iree-opt > /dev/null
// REQUIRES: iree-opt
// iree-opt regenerates the custom-form input, tmem-opt reads it, and upstream reads tmem-opt's
// output back, in both forms, for every spelling of upstream_custom.mlir and upstream_generic.mlir.
