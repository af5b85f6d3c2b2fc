// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Verifier rules of the tcgen05-level TMA ops, each after its legal twin.

func.func @legal(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  %m = arith.constant 1 : i16
  tcgen05.tma_load %s, %t [%x, %x, %x, %x, %x], %b multicast %m cta_group(1)
  tcgen05.tma_store %t [%x], %s
  tcgen05.bulk_wait_group 0
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{expects coordinates between 1 to 5 dimension, got 6}}
  tcgen05.tma_load %s, %t [%x, %x, %x, %x, %x, %x], %b
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr) {
  // expected-error@+1 {{expects coordinates between 1 to 5 dimension, got 0}}
  tcgen05.tma_store %t [], %s
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{cta_group must be 1 or 2, got 3}}
  tcgen05.tma_load %s, %t [%x], %b cta_group(3)
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>, %t: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  %m = arith.constant 0 : i16
  // expected-error@+1 {{a multicast mask of 0 writes no CTA (and completes no barrier)}}
  tcgen05.tma_load %s, %t [%x], %b multicast %m
  func.return
}

// -----

func.func @k() {
  // expected-error@+1 {{cp.async.bulk.wait_group takes a non-negative group count, got -2}}
  tcgen05.bulk_wait_group -2
  func.return
}
