// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tmem-opt %s | iree-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | iree-opt | filecheck %s
// RUN: iree-opt %s --mlir-print-op-generic | tmem-opt | filecheck %s
// REQUIRES: iree-opt

// Cluster special registers, nvvm.mapa, nvvm.setmaxregister and the cluster barrier in upstream
// MLIR's syntax: printed by us, parsed and verified by iree-opt, and back.

// CHECK-LABEL: llvm.func @cluster
llvm.func @cluster(%p: !llvm.ptr<3>, %g: !llvm.ptr, %rank: i32) attributes {nvvm.kernel} {
  // CHECK-NEXT: nvvm.read.ptx.sreg.cluster.ctarank : i32
  // GENERIC: "nvvm.read.ptx.sreg.cluster.ctarank"() : () -> i32
  %0 = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.cluster.nctarank : i32
  %1 = nvvm.read.ptx.sreg.cluster.nctarank : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.clusterid.x : i32
  %2 = nvvm.read.ptx.sreg.clusterid.x : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.nclusterid.y : i32
  %3 = nvvm.read.ptx.sreg.nclusterid.y : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.cluster.ctaid.z : i32
  %4 = nvvm.read.ptx.sreg.cluster.ctaid.z : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.cluster.nctaid.x range <i32, 1, 17> : i32
  %5 = nvvm.read.ptx.sreg.cluster.nctaid.x range <i32, 1, 17> : i32
  // CHECK-NEXT: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
  // GENERIC: "nvvm.mapa"(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32) -> !llvm.ptr<7>
  %6 = nvvm.mapa %p, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr -> !llvm.ptr
  %7 = nvvm.mapa %g, %rank : !llvm.ptr -> !llvm.ptr
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr<7> -> i32
  %8 = llvm.load %6 : !llvm.ptr<7> -> i32
  // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
  nvvm.mbarrier.arrive %6 : !llvm.ptr<7>
  // CHECK-NEXT: nvvm.setmaxregister increase 232
  // GENERIC: "nvvm.setmaxregister"() <{action = #nvvm.action<increase>, regCount = 232 : i32}> : () -> ()
  nvvm.setmaxregister increase 232
  // CHECK-NEXT: nvvm.setmaxregister decrease 24
  // GENERIC: "nvvm.setmaxregister"() <{action = #nvvm.action<decrease>, regCount = 24 : i32}> : () -> ()
  nvvm.setmaxregister decrease 24
  // CHECK-NEXT: nvvm.cluster.arrive.relaxed aligned
  nvvm.cluster.arrive.relaxed aligned
  // CHECK-NEXT: nvvm.cluster.arrive{{$}}
  nvvm.cluster.arrive
  // CHECK-NEXT: nvvm.cluster.wait aligned
  nvvm.cluster.wait aligned
  llvm.return
}
