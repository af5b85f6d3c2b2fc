// REQUIRES: iree-opt
// RUN: iree-opt %s | tmem-opt | filecheck %s
// RUN: iree-opt %s | tmem-opt | iree-opt --mlir-print-op-generic > %t.ours
// RUN: iree-opt %s --mlir-print-op-generic > %t.upstream
// RUN: diff %t.ours %t.upstream

// tmem-opt parses what upstream MLIR (iree-opt) prints for every nvvm op, and prints it back
// as the same IR.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: llvm.func @all_ops
llvm.func @all_ops(%t: !llvm.ptr<6>, %n: i32, %v4: vector<4xi32>, %v2: vector<2xi32>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %off = llvm.mlir.constant(1048576 : i64) : i64
  %id = llvm.mlir.constant(0 : i32) : i32
  // CHECK: nvvm.tcgen05.alloc %{{.*}}, %{{.*}}, group = <cta_2> : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %slot, %n, group = <cta_2> : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  // CHECK-NEXT: nvvm.tcgen05.fence <before>
  nvvm.tcgen05.fence <before>
  // CHECK-NEXT: nvvm.barrier id = %{{.*}}{{$}}
  nvvm.barrier id = %id
  // CHECK-NEXT: nvvm.tcgen05.fence <after>
  nvvm.tcgen05.fence <after>
  // CHECK-NEXT: nvvm.tcgen05.ld %{{.*}} shape = shape_16x64b : vector<4xi32>
  %a = nvvm.tcgen05.ld %t shape = shape_16x64b : vector<4xi32>
  // CHECK-NEXT: nvvm.tcgen05.ld %{{.*}}, %{{.*}} shape = shape_16x32bx2 : vector<2xi32>
  %b = nvvm.tcgen05.ld %t, %off shape = shape_16x32bx2 : vector<2xi32>
  // CHECK-NEXT: nvvm.tcgen05.wait <load>
  nvvm.tcgen05.wait <load>
  // CHECK-NEXT: nvvm.tcgen05.st %{{.*}}, %{{.*}} unpack shape = shape_16x256b : vector<4xi32>
  nvvm.tcgen05.st %t, %v4 unpack shape = shape_16x256b : vector<4xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %{{.*}}, %{{.*}}, %{{.*}} shape = shape_16x32bx2 : vector<2xi32>
  nvvm.tcgen05.st %t, %v2, %off shape = shape_16x32bx2 : vector<2xi32>
  // CHECK-NEXT: nvvm.tcgen05.wait <store>
  nvvm.tcgen05.wait <store>
  // CHECK-NEXT: nvvm.read.ptx.sreg.tid.z : i32
  %tz = nvvm.read.ptx.sreg.tid.z : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.ntid.x range <i32, 1, 1025> : i32
  %nt = nvvm.read.ptx.sreg.ntid.x range <i32, 1, 1025> : i32
  // CHECK-NEXT: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}}, group = <cta_2> : !llvm.ptr<6>, i32
  nvvm.tcgen05.dealloc %t, %n, group = <cta_2> : !llvm.ptr<6>, i32
  llvm.return
}
