// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// (Property order in the generic form is not significant; upstream sorts, xDSL keeps insertion order.)

// nvvm.tcgen05.alloc / dealloc / relinquish_alloc_permit in upstream MLIR syntax, cta_group 1 and 2.

// CHECK-LABEL: llvm.func @alloc
llvm.func @alloc(%slot: !llvm.ptr<3>, %generic: !llvm.ptr, %t: !llvm.ptr<6>, %n: i32) {
  // CHECK-NEXT: nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  // GENERIC: "nvvm.tcgen05.alloc"(%slot, %n) <{{.*}}group = #nvvm.cta_group<cta_1>{{.*}}}> : (!llvm.ptr<3>, i32) -> ()
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.tcgen05.alloc %slot, %n, group = <cta_2> : !llvm.ptr<3>, i32
  // GENERIC: "nvvm.tcgen05.alloc"(%slot, %n) <{{.*}}group = #nvvm.cta_group<cta_2>{{.*}}}> : (!llvm.ptr<3>, i32) -> ()
  nvvm.tcgen05.alloc %slot, %n, group = <cta_2> : !llvm.ptr<3>, i32
  // A generic pointer to shared memory is accepted too.
  // CHECK-NEXT: nvvm.tcgen05.alloc %generic, %n : !llvm.ptr, i32
  nvvm.tcgen05.alloc %generic, %n : !llvm.ptr, i32
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit{{$}}
  // GENERIC: "nvvm.tcgen05.relinquish_alloc_permit"() <{group = #nvvm.cta_group<cta_1>}> : () -> ()
  nvvm.tcgen05.relinquish_alloc_permit
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  // GENERIC: "nvvm.tcgen05.relinquish_alloc_permit"() <{group = #nvvm.cta_group<cta_2>}> : () -> ()
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  // CHECK-NEXT: nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  // GENERIC: "nvvm.tcgen05.dealloc"(%t, %n) <{{.*}}group = #nvvm.cta_group<cta_1>{{.*}}}> : (!llvm.ptr<6>, i32) -> ()
  nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  // CHECK-NEXT: nvvm.tcgen05.dealloc %t, %n, group = <cta_2> : !llvm.ptr<6>, i32
  nvvm.tcgen05.dealloc %t, %n, group = <cta_2> : !llvm.ptr<6>, i32
  // An explicit cta_1 is the default and prints without the clause.
  // CHECK-NEXT: nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  nvvm.tcgen05.dealloc %t, %n, group = <cta_1> : !llvm.ptr<6>, i32
  // CHECK-NEXT: llvm.return
  llvm.return
}
