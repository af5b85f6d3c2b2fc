// RUN: iree-opt %s > /dev/null
// RUN: tmem-opt %s -t ptx | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// REQUIRES: iree-opt, ptxas

// Constant GEP offsets fold into the `[reg+imm]` address while they fit its 32-bit signed
// immediate; a wider one (2^32 bytes here, from chained GEPs) is added in a 64-bit register first.

// CHECK-LABEL: .visible .entry wide_offsets(
// CHECK:       st.global.b32 [%rd{{[0-9]+}}+-8], %r{{[0-9]+}};
// CHECK:       st.global.b32 [%rd{{[0-9]+}}+2147483644], %r{{[0-9]+}};
// CHECK:       add.s64 [[WIDE:%rd[0-9]+]], %rd{{[0-9]+}}, 4294967296;
// CHECK-NEXT:  st.global.b32 [[[WIDE]]], %r{{[0-9]+}};
llvm.func @wide_offsets(%p: !llvm.ptr<1>, %v: i32) attributes {nvvm.kernel} {
  %near = llvm.getelementptr %p[-2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %v, %near : i32, !llvm.ptr<1>
  %edge = llvm.getelementptr %p[536870911] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %v, %edge : i32, !llvm.ptr<1>
  %half = llvm.getelementptr %p[2147483647] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
  %most = llvm.getelementptr %half[2147483647] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
  %far = llvm.getelementptr %most[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
  llvm.store %v, %far : i32, !llvm.ptr<1>
  llvm.return
}
