// REQUIRES: iree-opt
// RUN: iree-opt %s --mlir-print-op-generic | tmem-opt | filecheck %s
// RUN: iree-opt %s --mlir-print-op-generic | tmem-opt --print-op-generic | iree-opt --mlir-print-op-generic > %t.ours
// RUN: iree-opt %s --mlir-print-op-generic > %t.upstream
// RUN: diff %t.ours %t.upstream

// tmem-opt parses the generic form upstream MLIR (iree-opt) prints for every nvvm op (properties
// such as isExclusive, group, aligned and operandSegmentSizes included) and prints it back so
// that upstream reads the same IR. (No llvm.mlir.global here: upstream's generic global carries
// properties, e.g. tls_mode, that xDSL's llvm dialect does not define.)

// CHECK-LABEL: llvm.func @all_ops
llvm.func @all_ops(%slot: !llvm.ptr<3>, %t: !llvm.ptr<6>, %n: i32, %v16: vector<16xi32>) {
  %off = llvm.mlir.constant(32 : i64) : i64
  %id = llvm.mlir.constant(2 : i32) : i32
  %cnt = llvm.mlir.constant(128 : i32) : i32
  // CHECK: nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.tcgen05.alloc %{{.*}}, %{{.*}}, group = <cta_2> : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %slot, %n, group = <cta_2> : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit{{$}}
  nvvm.tcgen05.relinquish_alloc_permit
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  // CHECK-NEXT: nvvm.tcgen05.fence <before>
  nvvm.tcgen05.fence <before>
  // CHECK-NEXT: nvvm.barrier{{$}}
  nvvm.barrier
  // CHECK-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
  nvvm.barrier id = %id number_of_threads = %cnt
  // CHECK-NEXT: nvvm.tcgen05.fence <after>
  nvvm.tcgen05.fence <after>
  // CHECK-NEXT: nvvm.tcgen05.ld %{{.*}} shape = shape_32x32b : vector<16xi32>
  %a = nvvm.tcgen05.ld %t shape = shape_32x32b : vector<16xi32>
  // CHECK-NEXT: nvvm.tcgen05.ld %{{.*}} pack shape = shape_16x128b : vector<16xi32>
  %b = nvvm.tcgen05.ld %t pack shape = shape_16x128b : vector<16xi32>
  // CHECK-NEXT: nvvm.tcgen05.ld %{{.*}}, %{{.*}} pack shape = shape_16x32bx2 : vector<16xi32>
  %c = nvvm.tcgen05.ld %t, %off pack shape = shape_16x32bx2 : vector<16xi32>
  // CHECK-NEXT: nvvm.tcgen05.wait <load>
  nvvm.tcgen05.wait <load>
  // CHECK-NEXT: nvvm.tcgen05.st %{{.*}}, %{{.*}} shape = shape_16x256b : vector<16xi32>
  nvvm.tcgen05.st %t, %v16 shape = shape_16x256b : vector<16xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %{{.*}}, %{{.*}}, %{{.*}} unpack shape = shape_16x32bx2 : vector<16xi32>
  nvvm.tcgen05.st %t, %v16, %off unpack shape = shape_16x32bx2 : vector<16xi32>
  // CHECK-NEXT: nvvm.tcgen05.wait <store>
  nvvm.tcgen05.wait <store>
  // CHECK-NEXT: nvvm.read.ptx.sreg.nctaid.z : i32
  %nz = nvvm.read.ptx.sreg.nctaid.z : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.tid.y range <i32, 0, 4> : i32
  %ty = nvvm.read.ptx.sreg.tid.y range <i32, 0, 4> : i32
  // CHECK-NEXT: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} : !llvm.ptr<6>, i32
  nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  llvm.return
}
