// RUN: not tmem-opt %s 2>&1 | filecheck %s

// Every failing op of a module is reported, in source order, not only the first.

// CHECK: tmem_opt_multiple_errors.mlir:[[# @LINE + 7]]:3: error: cta_group must be 1 or 2, got 3
// CHECK: tmem_opt_multiple_errors.mlir:[[# @LINE + 8]]:3: error: pack::16b is only valid on tcgen05.ld
// CHECK: tmem_opt_multiple_errors.mlir:[[# @LINE + 8]]:3: error: the half-split offset is only allowed with shape 16x32bx2, not 16x64b
// CHECK-NOT: error:
func.func @k(%s: !llvm.ptr<3>, %a: i32, %v: vector<1xi32>) {
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.wait load
  tcgen05.relinquish_alloc_permit cta_group(3)
  tcgen05.fence before_thread_sync
  tcgen05.st %v, %a shape_32x32b x1 pack : vector<1xi32>
  tcgen05.st %v, %a, offset 8 shape_16x64b x1 : vector<1xi32>
  func.return
}
