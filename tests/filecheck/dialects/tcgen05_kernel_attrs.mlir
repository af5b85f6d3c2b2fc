// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// The kernel attributes of the tcgen05 level: tcgen05.kernel marks the entry point and
// tcgen05.reqntid gives the exact block size (how many warps exist).

// CHECK: func.func @kernel(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>}
func.func @kernel(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.tid.x : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK-NEXT: nvvm.barrier
  nvvm.barrier
  func.return
}

// CHECK: func.func @two_warpgroups() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 4, 1>}
func.func @two_warpgroups() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 4, 1>} {
  func.return
}
