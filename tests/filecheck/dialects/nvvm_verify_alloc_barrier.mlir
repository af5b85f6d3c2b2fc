// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Verifier messages of nvvm.tcgen05.alloc / dealloc and nvvm.barrier.

llvm.func @k(%t: !llvm.ptr<6>, %n: i32) {
  // expected-error@+1 {{the address slot must be !llvm.ptr<3> or !llvm.ptr, got !llvm.ptr<6>}}
  nvvm.tcgen05.alloc %t, %n : !llvm.ptr<6>, i32
  llvm.return
}

// -----

llvm.func @k(%g: !llvm.ptr<1>, %n: i32) {
  // expected-error@+1 {{the address slot must be !llvm.ptr<3> or !llvm.ptr, got !llvm.ptr<1>}}
  nvvm.tcgen05.alloc %g, %n : !llvm.ptr<1>, i32
  llvm.return
}

// -----

llvm.func @k(%p: !llvm.ptr<3>, %n: i32) {
  // expected-error@+1 {{the TMEM address must be a TMEM pointer !llvm.ptr<6>, got !llvm.ptr<3>}}
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<3>, i32
  llvm.return
}

// -----

llvm.func @k(%p: !llvm.ptr<3>, %n: i64) {
  // expected-error@+1 {{operand 'nCols' at position 1 does not verify}}
  "nvvm.tcgen05.alloc"(%p, %n) <{group = #nvvm.cta_group<cta_1>, isExclusive = false}> : (!llvm.ptr<3>, i64) -> ()
  llvm.return
}

// -----

// Upstream accepts a thread count without an id: barrier 0 (PTX `bar.sync 0, n`).
llvm.func @k(%n: i32) {
  nvvm.barrier number_of_threads = %n
  llvm.return
}

// -----

llvm.func @k() {
  // expected-error@+1 {{Expected `cta_1`, or `cta_2`.}}
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_3>
  llvm.return
}
