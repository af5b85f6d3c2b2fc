// RUN: tmem-opt %s -t ptx | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// REQUIRES: ptxas

// Every TMA instruction as the PTX target spells it (1-5 D tile loads, multicast, cta_group,
// shared::cta destination, predicate, L2 hint, the bulk store group, prefetch), accepted by ptxas.

// CHECK: cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[DST:tile]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}}], [bar];
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[DST]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [bar];
// CHECK-NEXT: cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[DST]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [bar];
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [[[DST]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [bar], 3;
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [[[DST]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [bar], 3;
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [[[DST]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [bar], %rd{{[0-9]+}};
// CHECK-NEXT: @%p{{[0-9]+}} cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[DST]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [bar];
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [tile], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [bar];
// CHECK-NEXT: cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}];
// CHECK-NEXT: prefetch.tensormap [%rd{{[0-9]+}}];
// CHECK-NEXT: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [[[DST]]], [%rd{{[0-9]+}}], 256, [bar];
// CHECK-NEXT: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [[[DST]]], [%rd{{[0-9]+}}], 256, [bar], 3;
// CHECK-NEXT: cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [tile], [%rd{{[0-9]+}}], %r{{[0-9]+}}, [bar];
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [tile];
// CHECK-NEXT: cp.async.bulk.global.shared::cta.bulk_group [%rd{{[0-9]+}}], [tile], 256;
// CHECK-NEXT: cp.async.bulk.commit_group;
// CHECK-NEXT: cp.async.bulk.wait_group.read 0;
// CHECK-NEXT: cp.async.bulk.wait_group 1;

module {
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x i8>
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @tma(%tmap: !llvm.ptr, %g: !llvm.ptr<1>, %x: i32, %y: i32, %hint: i64, %p: i1, %n: i32) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %dst = llvm.addrspacecast %smem : !llvm.ptr<3> to !llvm.ptr<7>
    %mask = llvm.mlir.constant(3 : i16) : i16
    %size = llvm.mlir.constant(256 : i32) : i32
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x] : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y, %x, %y, %x] : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] multicast_mask = %mask group = cta_2 : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] l2_cache_hint = %hint : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] predicate = %p : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %smem, %tmap, %bar, box[%x, %y] cta_only = true : !llvm.ptr<3>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.prefetch %tmap, box[%x, %y] : !llvm.ptr
    nvvm.prefetch tensormap, %tmap : !llvm.ptr
    nvvm.cp.async.bulk.shared.cluster.global %dst, %g, %bar, %size : !llvm.ptr<7>, !llvm.ptr<1>
    nvvm.cp.async.bulk.shared.cluster.global %dst, %g, %bar, %size multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
    nvvm.cp.async.bulk.shared.cluster.global %smem, %g, %bar, %n : !llvm.ptr<3>, !llvm.ptr<1>
    nvvm.fence.proxy <async.shared>, space = <cta>
    nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %smem, box[%x, %y] : !llvm.ptr, !llvm.ptr<3>
    nvvm.cp.async.bulk.global.shared.cta %g, %smem, %size : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.cp.async.bulk.commit.group
    nvvm.cp.async.bulk.wait_group 0 read
    nvvm.cp.async.bulk.wait_group 1
    llvm.return
  }
}
