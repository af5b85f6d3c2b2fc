// REQUIRES: iree-opt
// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s | iree-opt | filecheck %s
// RUN: iree-opt %s --mlir-print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s | iree-opt --mlir-print-op-generic > %t.ours
// RUN: iree-opt %s --mlir-print-op-generic > %t.upstream
// RUN: diff %t.ours %t.upstream

// nvvm.ldmatrix and nvvm.bar.warp.sync in upstream's current custom form: tmem-opt prints them
// as iree-opt does, and both tools read each other's generic form as the same IR.

// CHECK-LABEL: llvm.func @warp_ops
llvm.func @warp_ops(%p: !llvm.ptr<3>, %mask: i32) {
  // CHECK: nvvm.bar.warp.sync %{{.*}} : i32
  nvvm.bar.warp.sync %mask : i32
  // CHECK: nvvm.ldmatrix %{{.*}}, num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  %a = nvvm.ldmatrix %p, num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: nvvm.ldmatrix %{{.*}}, num = 2, layout = <col>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
  %b = nvvm.ldmatrix %p, num = 2, layout = <col>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
  // CHECK: nvvm.ldmatrix %{{.*}}, num = 1, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> i32
  %c = nvvm.ldmatrix %p, num = 1, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> i32
  llvm.return
}
