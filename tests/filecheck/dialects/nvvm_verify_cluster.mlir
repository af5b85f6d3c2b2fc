// RUN: tmem-opt %s --split-input-file --verify-diagnostics
// RUN: not iree-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: iree-opt

// Verifier messages of nvvm.setmaxregister and nvvm.mapa; upstream rejects the same ops.

llvm.func @k() {
  // UPSTREAM: new register size must be multiple of 8
  // expected-error@+1 {{new register size must be multiple of 8, got 95}}
  nvvm.setmaxregister increase 95
  llvm.return
}

// -----

llvm.func @k() {
  // UPSTREAM: new register size must be in between 24 to 256
  // expected-error@+1 {{new register size must be in between 24 to 256, got 16}}
  nvvm.setmaxregister decrease 16
  llvm.return
}

// -----

llvm.func @k() {
  // UPSTREAM: new register size must be in between 24 to 256
  // expected-error@+1 {{new register size must be in between 24 to 256, got 264}}
  nvvm.setmaxregister increase 264
  llvm.return
}

// -----

llvm.func @k(%p: !llvm.ptr<3>, %r: i32) {
  // UPSTREAM: 'nvvm.mapa' op
  // expected-error@+1 {{mapa maps !llvm.ptr<3> to !llvm.ptr<7> or !llvm.ptr to !llvm.ptr, not !llvm.ptr<3> to !llvm.ptr}}
  %0 = nvvm.mapa %p, %r : !llvm.ptr<3> -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @k(%p: !llvm.ptr<7>) {
  // UPSTREAM: mbarrier in shared_cluster space cannot return any value
  // expected-error@+1 {{mbarrier in shared_cluster space cannot return any value}}
  %0 = nvvm.mbarrier.arrive %p : !llvm.ptr<7> -> i64
  llvm.return
}
