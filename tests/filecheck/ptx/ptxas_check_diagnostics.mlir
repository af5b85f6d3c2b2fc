// RUN: tmem-opt %s -t ptx --ptxas-check --split-input-file --verify-diagnostics
// REQUIRES: ptxas

// --ptxas-check assembles the module and reports what ptxas rejects at the op that produced the
// offending PTX line (with the line as a note), or at the kernel ptxas names.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @bad_ncols() attributes {nvvm.kernel} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %n = llvm.mlir.constant(48 : i32) : i32
  // expected-error@+2 {{ptxas: Argument 1 of 'tcgen05.alloc' instruction: value must be power of 2}}
  // expected-note@+1 {{in PTX line 16: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 48;}}
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// expected-error@+1 {{ptxas: Function 'mixed' uses single CTA(.cta_group::1) and CTA pair granularity(.cta_group::2)}}
llvm.func @mixed() attributes {nvvm.kernel} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %n = llvm.mlir.constant(32 : i32) : i32
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  llvm.return
}
