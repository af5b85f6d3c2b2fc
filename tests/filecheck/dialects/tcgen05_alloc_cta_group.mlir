// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The allocation lifecycle with cta_group 1 (the default, not printed) and 2.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: func.func @pair
func.func @pair(%t: i32) {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // CHECK: tcgen05.alloc %{{.*}}, 128 cta_group(2) : !llvm.ptr<3>
  // GENERIC: "tcgen05.alloc"(%{{.*}}) <{ncols = 128 : i32, cta_group = 2 : i32}> : (!llvm.ptr<3>) -> ()
  tcgen05.alloc %s, 128 cta_group(2) : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.relinquish_alloc_permit cta_group(2)
  // GENERIC: "tcgen05.relinquish_alloc_permit"() <{cta_group = 2 : i32}> : () -> ()
  tcgen05.relinquish_alloc_permit cta_group(2)
  // CHECK-NEXT: tcgen05.dealloc %t, 128 cta_group(2)
  // GENERIC: "tcgen05.dealloc"(%t) <{ncols = 128 : i32, cta_group = 2 : i32}> : (i32) -> ()
  tcgen05.dealloc %t, 128 cta_group(2)
  func.return
}

// An explicit cta_group(1) is the default and prints without the clause.
// CHECK-LABEL: func.func @single
func.func @single(%t: i32) {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // CHECK: tcgen05.alloc %{{.*}}, 32 : !llvm.ptr<3>
  // GENERIC: "tcgen05.alloc"(%{{.*}}) <{ncols = 32 : i32, cta_group = 1 : i32}> : (!llvm.ptr<3>) -> ()
  tcgen05.alloc %s, 32 cta_group(1) : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.relinquish_alloc_permit{{$}}
  tcgen05.relinquish_alloc_permit cta_group(1)
  // CHECK-NEXT: tcgen05.dealloc %t, 32{{$}}
  tcgen05.dealloc %t, 32 cta_group(1)
  func.return
}
