// REQUIRES: iree-opt, ptxas
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | iree-opt > /dev/null
// RUN: tmem-opt %s -t ptx --ptxas-check | filecheck %s --check-prefix=PTX

// The tcgen05-level TMA ops lower one to one to upstream's (iree-opt accepts them) and emit the
// PTX ptxas assembles; a tensor map is a generic !llvm.ptr kernel parameter.

llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
func.func @k(%tmap: !llvm.ptr, %x: i32) attributes {tcgen05.kernel} {
  %s = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %b = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %m = arith.constant 3 : i16
  // CHECK: %[[D:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D]], %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [bar];
  tcgen05.tma_load %s, %tmap [%x, %x], %b
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}] multicast_mask = %{{.*}} group = cta_2 : !llvm.ptr<7>, !llvm.ptr
  // PTX: cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [tile], [%rd{{[0-9]+}}, {%r{{[0-9]+}}}], [bar], 3;
  tcgen05.tma_load %s, %tmap [%x], %b multicast %m cta_group(2)
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr, !llvm.ptr<3>
  // PTX: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [tile];
  tcgen05.tma_store %tmap [%x, %x, %x], %s
  // CHECK: nvvm.cp.async.bulk.commit.group
  // PTX: cp.async.bulk.commit_group;
  tcgen05.bulk_commit_group
  // CHECK: nvvm.cp.async.bulk.wait_group 0 read
  // PTX: cp.async.bulk.wait_group.read 0;
  tcgen05.bulk_wait_group 0 read
  func.return
}
