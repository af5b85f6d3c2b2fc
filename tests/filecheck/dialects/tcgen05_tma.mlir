// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// The tcgen05-level TMA ops round-trip in custom and generic form.

llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
func.func @k(%tmap: !llvm.ptr, %x: i32) attributes {tcgen05.kernel} {
  %s = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %b = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %m = arith.constant 3 : i16
  // CHECK: tcgen05.tma_load %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}{{$}}
  tcgen05.tma_load %s, %tmap [%x, %x], %b
  // CHECK: tcgen05.tma_load %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} multicast %{{.*}} cta_group(2)
  tcgen05.tma_load %s, %tmap [%x], %b multicast %m cta_group(2)
  // CHECK: tcgen05.tma_store %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}
  tcgen05.tma_store %tmap [%x, %x, %x, %x, %x], %s
  // CHECK: tcgen05.bulk_commit_group
  tcgen05.bulk_commit_group
  // CHECK: tcgen05.bulk_wait_group 0 read
  tcgen05.bulk_wait_group 0 read
  // CHECK: tcgen05.bulk_wait_group 2{{$}}
  tcgen05.bulk_wait_group 2
  func.return
}
