// REQUIRES: iree-opt
// RUN: tmem-opt %s | iree-opt | filecheck %s
// RUN: tmem-opt %s | iree-opt --mlir-print-op-generic > %t.ours
// RUN: iree-opt %s --mlir-print-op-generic > %t.upstream
// RUN: diff %t.ours %t.upstream

// The TMA ops of upstream NVVM in the custom form iree-opt prints (its short `<3>` pointer types
// included): tmem-opt reads them, prints them, and iree-opt reads the result as the same IR.

llvm.func @tma(%dst: !llvm.ptr<7>, %smem: !llvm.ptr<3>, %tmap: !llvm.ptr, %bar: !llvm.ptr<3>, %x: i32, %y: i32, %m: i16, %h: i64, %g: !llvm.ptr<1>, %n: i32, %p: i1) {
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x] : !llvm.ptr<7>, !llvm.ptr
  // CHECK: box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] :
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y, %x, %y, %x] : !llvm.ptr<7>, !llvm.ptr
  // CHECK: multicast_mask = %{{.*}} l2_cache_hint = %{{.*}} group = cta_2 :
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] multicast_mask = %m l2_cache_hint = %h group = cta_2 : !llvm.ptr<7>, !llvm.ptr
  // CHECK: multicast_mask = %{{.*}} predicate = %{{.*}} group = cta_1 :
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] multicast_mask = %m group = cta_1 predicate = %p : !llvm.ptr<7>, !llvm.ptr
  // CHECK: cta_only = true : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %smem, %tmap, %bar, box[%x, %y] cta_only = true : !llvm.ptr<3>, !llvm.ptr
  // CHECK: im2col[%{{.*}}] mode = im2col :
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y, %x] im2col[%m] mode = im2col : !llvm.ptr<7>, !llvm.ptr
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %{{.*}} : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %smem, box[%x, %y] l2_cache_hint = %h : !llvm.ptr, <3>
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}] predicate = %{{.*}} : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %smem, box[%x] predicate = %p : !llvm.ptr, !llvm.ptr<3>
  // CHECK: nvvm.cp.async.bulk.tensor.prefetch %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %{{.*}} : !llvm.ptr
  nvvm.cp.async.bulk.tensor.prefetch %tmap, box[%x, %y] l2_cache_hint = %h : !llvm.ptr
  // CHECK: nvvm.prefetch tensormap, %{{.*}} : !llvm.ptr
  nvvm.prefetch tensormap, %tmap : !llvm.ptr
  // CHECK: nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} multicast_mask = %{{.*}} l2_cache_hint = %{{.*}} : !llvm.ptr<7>, <1>
  nvvm.cp.async.bulk.shared.cluster.global %dst, %g, %bar, %n multicast_mask = %m l2_cache_hint = %h : !llvm.ptr<7>, <1>
  // CHECK: nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<3>, <1>
  nvvm.cp.async.bulk.shared.cluster.global %smem, %g, %bar, %n : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK: nvvm.cp.async.bulk.global.shared.cta %{{.*}}, %{{.*}}, %{{.*}} l2_cache_hint = %{{.*}} : <1>, <3>
  nvvm.cp.async.bulk.global.shared.cta %g, %smem, %n l2_cache_hint = %h : <1>, <3>
  // CHECK: nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.commit.group
  // CHECK: nvvm.cp.async.bulk.wait_group 0 read
  nvvm.cp.async.bulk.wait_group 0 read
  // CHECK: nvvm.cp.async.bulk.wait_group 3
  nvvm.cp.async.bulk.wait_group 3
  llvm.return
}
