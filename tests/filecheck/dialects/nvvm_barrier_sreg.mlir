// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// nvvm.barrier (with and without id / thread count) and every special register we model.

// CHECK-LABEL: llvm.func @sregs
llvm.func @sregs(%id: i32, %n: i32) {
  // CHECK-NEXT: nvvm.barrier{{$}}
  // GENERIC: "nvvm.barrier"() <{{.*}}operandSegmentSizes = array<i32: 0, 0>{{.*}}}> : () -> ()
  nvvm.barrier
  // CHECK-NEXT: nvvm.barrier id = %id{{$}}
  // GENERIC: "nvvm.barrier"(%id) <{{.*}}operandSegmentSizes = array<i32: 1, 0>{{.*}}}> : (i32) -> ()
  nvvm.barrier id = %id
  // CHECK-NEXT: nvvm.barrier id = %id number_of_threads = %n
  // GENERIC: "nvvm.barrier"(%id, %n) <{{.*}}operandSegmentSizes = array<i32: 1, 1>{{.*}}}> : (i32, i32) -> ()
  nvvm.barrier id = %id number_of_threads = %n
  // CHECK-NEXT: nvvm.read.ptx.sreg.tid.x : i32
  // GENERIC: "nvvm.read.ptx.sreg.tid.x"() : () -> i32
  %0 = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.tid.y : i32
  %1 = nvvm.read.ptx.sreg.tid.y : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.tid.z : i32
  %2 = nvvm.read.ptx.sreg.tid.z : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.ntid.x : i32
  %3 = nvvm.read.ptx.sreg.ntid.x : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.ntid.y : i32
  %4 = nvvm.read.ptx.sreg.ntid.y : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.ntid.z : i32
  %5 = nvvm.read.ptx.sreg.ntid.z : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.ctaid.x : i32
  %6 = nvvm.read.ptx.sreg.ctaid.x : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.ctaid.y : i32
  %7 = nvvm.read.ptx.sreg.ctaid.y : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.ctaid.z : i32
  %8 = nvvm.read.ptx.sreg.ctaid.z : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.nctaid.x : i32
  %9 = nvvm.read.ptx.sreg.nctaid.x : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.nctaid.y : i32
  %10 = nvvm.read.ptx.sreg.nctaid.y : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.nctaid.z : i32
  %11 = nvvm.read.ptx.sreg.nctaid.z : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.laneid : i32
  %12 = nvvm.read.ptx.sreg.laneid : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.warpid : i32
  %13 = nvvm.read.ptx.sreg.warpid : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.nwarpid : i32
  %14 = nvvm.read.ptx.sreg.nwarpid : i32
  // A value range, as upstream attaches to thread ids.
  // CHECK-NEXT: nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
  // GENERIC: "nvvm.read.ptx.sreg.tid.x"() <{range = #llvm.constant_range<i32, 0, 128>}> : () -> i32
  %15 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
  // CHECK-NEXT: llvm.return
  llvm.return
}
