// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// Every legal static column count: the powers of 2 from 32 to 512.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: func.func @ncols
func.func @ncols(%t: i32) {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // CHECK:      tcgen05.alloc %{{.*}}, 512 : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.alloc %{{.*}}, 256 : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.alloc %{{.*}}, 128 : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.alloc %{{.*}}, 64 : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.alloc %{{.*}}, 32 : !llvm.ptr<3>
  tcgen05.alloc %s, 512 : !llvm.ptr<3>
  tcgen05.alloc %s, 256 : !llvm.ptr<3>
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.dealloc %t, 32{{$}}
  // CHECK-NEXT: tcgen05.dealloc %t, 64{{$}}
  // CHECK-NEXT: tcgen05.dealloc %t, 128{{$}}
  // CHECK-NEXT: tcgen05.dealloc %t, 256{{$}}
  // CHECK-NEXT: tcgen05.dealloc %t, 512{{$}}
  tcgen05.dealloc %t, 32
  tcgen05.dealloc %t, 64
  tcgen05.dealloc %t, 128
  tcgen05.dealloc %t, 256
  tcgen05.dealloc %t, 512
  func.return
}
