// RUN: tmem-opt %s --split-input-file --verify-diagnostics
// REQUIRES: iree-opt
// RUN: grep -v "expected-error" %s | sed -n '/LEGAL-BEGIN/,/LEGAL-END/p' | iree-opt --split-input-file > /dev/null

// Verifier rules of the nvvm TMA ops (upstream's messages where upstream has the rule, isa.tma's
// facts for constant fields), each after its legal twin, which iree-opt accepts too.

// LEGAL-BEGIN
llvm.func @k(%d: !llvm.ptr<7>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %t, %b, box[%x, %x, %x, %x, %x] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %s, %t, %b, box[%x] cta_only = true : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%d: !llvm.ptr<7>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32, %p: i1) {
  %m = llvm.mlir.constant(3 : i16) : i16
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %t, %b, box[%x] multicast_mask = %m predicate = %p group = cta_2 : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%d: !llvm.ptr<7>, %g: !llvm.ptr<1>, %b: !llvm.ptr<3>, %s: !llvm.ptr<3>) {
  %n = llvm.mlir.constant(256 : i32) : i32
  nvvm.cp.async.bulk.shared.cluster.global %d, %g, %b, %n : !llvm.ptr<7>, !llvm.ptr<1>
  nvvm.cp.async.bulk.global.shared.cta %g, %s, %n : !llvm.ptr<1>, !llvm.ptr<3>
  nvvm.cp.async.bulk.wait_group 0 read
  llvm.return
}
// LEGAL-END

// -----

llvm.func @k(%d: !llvm.ptr<7>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{expects coordinates between 1 to 5 dimension, got 6}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %t, %b, box[%x, %x, %x, %x, %x, %x] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr, %s: !llvm.ptr<3>) {
  // expected-error@+1 {{expects coordinates between 1 to 5 dimension, got 0}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %s, box[] : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{Shared::cluster destination requires address-space 7.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %s, %t, %b, box[%x] : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%d: !llvm.ptr<7>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{Shared::cta destination requires address-space 3.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %t, %b, box[%x] cta_only = true : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32, %m: i16) {
  // expected-error@+1 {{Multicast is not supported with shared::cta mode.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %s, %t, %b, box[%x] multicast_mask = %m cta_only = true : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{CTAGroup is not supported with shared::cta mode.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %s, %t, %b, box[%x] cta_only = true group = cta_1 : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%d: !llvm.ptr<7>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32, %o: i16) {
  // expected-error@+1 {{to use im2col mode, the tensor has to be at least 3-dimensional}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %t, %b, box[%x, %x] im2col[%o] mode = im2col : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%d: !llvm.ptr<7>, %g: !llvm.ptr<1>, %b: !llvm.ptr<3>) {
  %n = llvm.mlir.constant(100 : i32) : i32
  // expected-error@+1 {{the size of cp.async.bulk must be a positive multiple of 16 bytes, got 100}}
  nvvm.cp.async.bulk.shared.cluster.global %d, %g, %b, %n : !llvm.ptr<7>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @k(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>) {
  %n = llvm.mlir.constant(8 : i32) : i32
  // expected-error@+1 {{the size of cp.async.bulk must be a positive multiple of 16 bytes, got 8}}
  nvvm.cp.async.bulk.global.shared.cta %g, %s, %n : !llvm.ptr<1>, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @k(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %n: i32) {
  // expected-error@+1 {{the source is shared::cta memory (!llvm.ptr<3>), got !llvm.ptr<1>}}
  nvvm.cp.async.bulk.global.shared.cta %g, %g, %n : !llvm.ptr<1>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @k() {
  // expected-error@+1 {{cp.async.bulk.wait_group takes a non-negative group count, got -1}}
  nvvm.cp.async.bulk.wait_group -1
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr) {
  // expected-error@+1 {{only the tensormap form of nvvm.prefetch is supported}}
  nvvm.prefetch %t : !llvm.ptr
  llvm.return
}
