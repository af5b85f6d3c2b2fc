// RUN: tmem-opt %s -t ptx | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// RUN: tmem-opt %s -t ptx | tmem-opt --input-format ptx --allow-unmodelled | filecheck %s --check-prefix=BACK
// REQUIRES: ptxas

// Cluster registers, mapa, shared::cluster loads/stores/remote arrives, setmaxnreg and the cluster
// barrier in PTX that ptxas assembles; the PTX front end reads each back as the same op (the
// remote mbarrier.arrive is not modelled there yet: --allow-unmodelled keeps it opaque).

llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x i32>
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64

// CHECK-LABEL: .visible .entry cluster(
// CHECK:       .reqntid 128, 1, 1
// CHECK-NEXT:  .explicitcluster
// CHECK-NEXT:  .reqnctapercluster 2
// BACK-LABEL:  llvm.func @cluster
// BACK-SAME:   nvvm.cluster_dim = array<i32: 2>
llvm.func @cluster(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 2>} {
  // CHECK:      mov.u32 %r{{[0-9]+}}, %tid.x;
  // CHECK-NEXT: mov.u32 %[[RANK:r[0-9]+]], %cluster_ctarank;
  // CHECK-NEXT: mov.u32 %[[N:r[0-9]+]], %cluster_nctarank;
  // CHECK-NEXT: mov.u32 %r{{[0-9]+}}, %clusterid.x;
  // CHECK-NEXT: mov.u32 %r{{[0-9]+}}, %cluster_ctaid.y;
  // CHECK-NEXT: mov.u32 %r{{[0-9]+}}, %cluster_nctaid.z;
  // BACK:      nvvm.read.ptx.sreg.cluster.ctarank : i32
  // BACK:      nvvm.read.ptx.sreg.cluster.nctarank : i32
  // BACK:      nvvm.read.ptx.sreg.clusterid.x : i32
  // BACK:      nvvm.read.ptx.sreg.cluster.ctaid.y : i32
  // BACK:      nvvm.read.ptx.sreg.cluster.nctaid.z : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %n = nvvm.read.ptx.sreg.cluster.nctarank : i32
  %cid = nvvm.read.ptx.sreg.clusterid.x : i32
  %cy = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
  %cz = nvvm.read.ptx.sreg.cluster.nctaid.z : i32
  // CHECK:      setmaxnreg.dec.sync.aligned.u32 40;
  // BACK:       nvvm.setmaxregister decrease 40
  nvvm.setmaxregister decrease 40
  // CHECK-NEXT: setmaxnreg.inc.sync.aligned.u32 232;
  // BACK-NEXT:  nvvm.setmaxregister increase 232
  nvvm.setmaxregister increase 232
  %base = llvm.mlir.addressof @buf : !llvm.ptr<3>
  %p = llvm.getelementptr %base[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  llvm.store %tid, %p : i32, !llvm.ptr<3>
  // CHECK:      barrier.cluster.arrive.aligned;
  // CHECK-NEXT: barrier.cluster.wait.aligned;
  // BACK:       nvvm.cluster.arrive aligned
  // BACK-NEXT:  nvvm.cluster.wait aligned
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %r1 = llvm.add %rank, %c1 : i32
  %next = llvm.urem %r1, %n : i32
  // CHECK:      mapa.shared::cluster.u64 %[[RP:rd[0-9]+]], %rd{{[0-9]+}}, %r{{[0-9]+}};
  // CHECK-NEXT: ld.shared::cluster.b32 %r{{[0-9]+}}, [%[[RP]]];
  // BACK:       nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
  // BACK:       llvm.load %{{.*}} : !llvm.ptr<7> -> i32
  %rp = nvvm.mapa %p, %next : !llvm.ptr<3> -> !llvm.ptr<7>
  %x = llvm.load %rp : !llvm.ptr<7> -> i32
  // CHECK:      st.shared::cluster.b32 [%[[RP]]], %r{{[0-9]+}};
  // BACK:       llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<7>
  llvm.store %x, %rp : i32, !llvm.ptr<7>
  // CHECK:      mapa.shared::cluster.u64 %[[RB:rd[0-9]+]], %rd{{[0-9]+}}, %r{{[0-9]+}};
  // CHECK-NEXT: mbarrier.arrive.shared::cluster.b64 _, [%[[RB]]];
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %rb = nvvm.mapa %bar, %next : !llvm.ptr<3> -> !llvm.ptr<7>
  nvvm.mbarrier.arrive %rb : !llvm.ptr<7>
  // A generic pointer maps to a generic pointer; cvta into and out of the cluster window.
  // CHECK:      cvta.shared.u64 %[[G:rd[0-9]+]], %rd{{[0-9]+}};
  // CHECK-NEXT: mapa.u64 %rd{{[0-9]+}}, %[[G]], %r{{[0-9]+}};
  // CHECK:      cvta.shared::cluster.u64 %rd{{[0-9]+}}, %[[RP]];
  // BACK:       nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr -> !llvm.ptr
  %gp = llvm.addrspacecast %p : !llvm.ptr<3> to !llvm.ptr
  %gq = nvvm.mapa %gp, %next : !llvm.ptr -> !llvm.ptr
  %y = llvm.load %gq : !llvm.ptr -> i32
  %gr = llvm.addrspacecast %rp : !llvm.ptr<7> to !llvm.ptr
  llvm.store %y, %gr : i32, !llvm.ptr
  // CHECK:      barrier.cluster.arrive.relaxed.aligned;
  // CHECK-NEXT: barrier.cluster.wait;
  // BACK:       nvvm.cluster.arrive.relaxed aligned
  // BACK-NEXT:  nvvm.cluster.wait{{$}}
  nvvm.cluster.arrive.relaxed aligned
  nvvm.cluster.wait
  llvm.return
}
