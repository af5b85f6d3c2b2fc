// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Plain xdsl-opt knows the tcgen05 and nvvm dialects through the xdsl.universe entry point.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: func.func @k
func.func @k(%v: vector<4xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // CHECK: tcgen05.alloc %{{.*}}, 128 : !llvm.ptr<3>
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  // CHECK-NEXT: tcgen05.relinquish_alloc_permit
  tcgen05.relinquish_alloc_permit
  // CHECK-NEXT: nvvm.barrier
  nvvm.barrier
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // CHECK: tcgen05.st %v, %{{.*}} shape_16x256b x1 : vector<4xi32>
  tcgen05.st %v, %a shape_16x256b x1 : vector<4xi32>
  // CHECK-NEXT: tcgen05.wait store
  tcgen05.wait store
  // CHECK-NEXT: tcgen05.ld %{{.*}}, offset 16 shape_16x32bx2 x4 pack : vector<4xi32>
  %r = tcgen05.ld %a, offset 16 shape_16x32bx2 x4 pack : vector<4xi32>
  // CHECK-NEXT: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
  // CHECK-NEXT: tcgen05.tile_load %{{.*}} [0, 0] [128, 8] : {{.*}} -> vector<8xf32>
  %t = tcgen05.tile_load %b [0, 0] [128, 8] : !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]> -> vector<8xf32>
  // CHECK: tcgen05.dealloc %{{.*}}, 128
  tcgen05.dealloc %a, 128
  func.return
}
