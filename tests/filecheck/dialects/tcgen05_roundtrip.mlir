// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: func.func @lifecycle
func.func @lifecycle() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // CHECK: tcgen05.alloc %{{.*}}, 256 : !llvm.ptr<3>
  tcgen05.alloc %s, 256 : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.relinquish_alloc_permit{{$}}
  tcgen05.relinquish_alloc_permit
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // CHECK: tcgen05.dealloc %{{.*}}, 256{{$}}
  tcgen05.dealloc %a, 256
  func.return
}
