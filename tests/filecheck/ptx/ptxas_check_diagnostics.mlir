// RUN: tmem-opt %s -t ptx --ptxas-check --split-input-file --verify-diagnostics
// REQUIRES: ptxas

// --ptxas-check assembles the module; what ptxas would reject here we report first, at our op,
// before ptxas runs. (A ptxas message mapped back to the op of its PTX line is tested in
// tests/test_kernel_checks.py, which feeds ptxas PTX that our checks never let through.)

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @bad_ncols() attributes {nvvm.kernel} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %n = llvm.mlir.constant(48 : i32) : i32
  // expected-error@+1 {{'nvvm.tcgen05.alloc': nCols must be a power of 2 in [32, 512], got 48}}
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @mixed() attributes {nvvm.kernel} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %n = llvm.mlir.constant(32 : i32) : i32
  // expected-note@+1 {{cta_group::1 is used here}}
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  // expected-error@+1 {{nvvm.tcgen05.relinquish_alloc_permit uses cta_group::2 but this kernel already uses cta_group::1}}
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  llvm.return
}
