// RUN: tmem-opt %s -t ptx --split-input-file --verify-diagnostics

// TMA forms the PTX target does not emit are reported at the op (never a partial output); the
// legal twin (the first kernel) emits. (The PTX-version and arch checks of ptx_tma.py cannot fire
// on the tcgen05 targets, which all need PTX 8.6 and an arch-specific or family target.)

llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.func @legal(%t: !llvm.ptr, %x: i32) attributes {nvvm.kernel} {
  %s = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %b = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %d = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr<7>
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %t, %b, box[%x, %x, %x] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.func @k(%t: !llvm.ptr, %x: i32, %o: i16) attributes {nvvm.kernel} {
  %s = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %b = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %d = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr<7>
  // expected-error@+1 {{nvvm.cp.async.bulk.tensor.shared.cluster.global in im2col mode (only the tile mode is emitted)}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %t, %b, box[%x, %x, %x] im2col[%o] mode = im2col : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
llvm.func @k(%g: !llvm.ptr<1>, %n: i32, %bm: i16) attributes {nvvm.kernel} {
  %s = llvm.mlir.addressof @tile : !llvm.ptr<3>
  // expected-error@+1 {{cp.async.bulk with a byte mask (.cp_mask, PTX 8.6 sm_100) is not emitted}}
  nvvm.cp.async.bulk.global.shared.cta %g, %s, %n byte_mask = %bm : !llvm.ptr<1>, !llvm.ptr<3>
  llvm.return
}
