// The pass output, lowered to NVVM, is accepted by upstream MLIR (iree-opt's parser and verifier).
// REQUIRES: iree-opt
// RUN: tmem-opt -p tmem-assign-lanes,convert-tcgen05-to-nvvm %S/assign_lanes_ptxas.mlir | iree-opt | filecheck %s
// RUN: tmem-opt -p tmem-plan-columns,tmem-assign-lanes,convert-tcgen05-to-nvvm %S/../../../examples/m64_f16.mlir | iree-opt | filecheck %s --check-prefix=M64

// CHECK-LABEL: llvm.func @half_split_f16
// CHECK: nvvm.tcgen05.st %{{.*}}, %{{.*}}, %{{.*}} unpack shape = shape_16x32bx2 : vector<16xi32>
// CHECK: nvvm.tcgen05.ld %{{.*}}, %{{.*}} pack shape = shape_16x32bx2 : vector<16xi32>
// CHECK-LABEL: llvm.func @zigzag
// CHECK-COUNT-2: nvvm.tcgen05.ld %{{.*}} shape = shape_16x256b : vector<32xi32>
// CHECK-LABEL: llvm.func @odd_bf16
// CHECK: nvvm.tcgen05.st %{{.*}}, %{{.*}} unpack shape = shape_32x32b : vector<1xi32>
// CHECK: nvvm.tcgen05.st %{{.*}}, %{{.*}} shape = shape_32x32b : vector<1xi32>
// M64-LABEL: llvm.func @m64_f16
// M64: nvvm.tcgen05.st %{{.*}}, %{{.*}} unpack shape = shape_16x256b : vector<16xi32>
// M64: nvvm.tcgen05.ld %{{.*}} pack shape = shape_16x256b : vector<16xi32>
