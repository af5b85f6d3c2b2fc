// RUN: tmem-opt %s -t ptx --split-input-file --verify-diagnostics | filecheck %s

// The PTX target takes tcgen05-level kernels too: it runs convert-tcgen05-to-nvvm on a copy
// first, so `tmem-opt k.mlir -p tmem-pipeline -t ptx` needs no explicit lowering step. What
// the lowering cannot take (tile ops before tmem-assign-lanes) is reported at the op.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: .visible .entry direct(
// CHECK:       .reqntid 32, 1, 1
// CHECK:       tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
// CHECK:       ld.shared.b32 %r[[BASE:[0-9]+]], [slot];
// CHECK:       tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%r[[BASE]]];
// CHECK:       tcgen05.wait::ld.sync.aligned;
// CHECK:       tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r[[BASE]], 32;
func.func @direct() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %v = tcgen05.ld %base shape_32x32b x2 : vector<2xi32>
  tcgen05.wait load
  tcgen05.dealloc %base, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @tiles(%x: f32) attributes {tcgen05.kernel} {
  %v = vector.broadcast %x : f32 to vector<32xf32>
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %buf = tcgen05.decl_buffer %base : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  // expected-error@+1 {{'tcgen05.tile_store' is a warpgroup tile op: run tmem-assign-lanes first}}
  tcgen05.tile_store %v, %buf [0, 0] [128, 32] : vector<32xf32>, !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  func.return
}
