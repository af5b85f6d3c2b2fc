// RUN: tmem-opt %s -p "convert-tcgen05-to-nvvm{index-bitwidth=32}" | filecheck %s
// RUN: tmem-opt %s -p "convert-tcgen05-to-nvvm{index-bitwidth=32}" | iree-opt > /dev/null
// RUN: tmem-opt %s -p "convert-tcgen05-to-nvvm{index-bitwidth=32}" -t ptx | filecheck %s --check-prefix=PTX
// RUN: not tmem-opt %s -p "convert-tcgen05-to-nvvm{index-bitwidth=16}" 2>&1 | filecheck %s --check-prefix=BAD
// REQUIRES: iree-opt

// index is i64 by default (upstream's choice); index-bitwidth=32 makes it i32, so loop counters
// and addressing stay 32-bit until the getelementptr (mul.wide.s32 in PTX).

// CHECK-LABEL: llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK:         %c4 = llvm.mlir.constant(4 : i32) : i32
// CHECK:       ^{{.*}}(%i: i32):
// CHECK-NEXT:    %{{.*}} = llvm.icmp "slt" %i, %c4 : i32
// CHECK:         %{{.*}} = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// PTX:           mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 4;
// BAD:           error: index-bitwidth must be 32 or 64, got 16
func.func @k(%out: memref<4xi32>) attributes {tcgen05.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %out[%i] : memref<4xi32>
  }
  func.return
}
