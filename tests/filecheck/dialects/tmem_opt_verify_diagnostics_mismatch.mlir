// RUN: not tmem-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s

// --verify-diagnostics fails (non-zero exit) when a diagnostic is not expected, when an expected
// one is not produced, and when an expectation sits on the wrong line or has the wrong text.

// CHECK-DAG: tmem_opt_verify_diagnostics_mismatch.mlir:14:3: error: unexpected error: nCols must be a power of 2 in [32, 512], got 48
// CHECK-DAG: tmem_opt_verify_diagnostics_mismatch.mlir:21:6: error: expected error "nCols must be a power of 2" was not produced
// CHECK-DAG: tmem_opt_verify_diagnostics_mismatch.mlir:31:3: error: unexpected error: cta_group must be 1 or 2, got 3
// CHECK-DAG: tmem_opt_verify_diagnostics_mismatch.mlir:29:6: error: expected error "cta_group must be 1 or 2" was not produced
// CHECK-DAG: tmem_opt_verify_diagnostics_mismatch.mlir:39:3: error: unexpected error: unpack::16b is only valid on tcgen05.st
// CHECK-DAG: tmem_opt_verify_diagnostics_mismatch.mlir:38:6: error: expected error "pack::16b is only valid on tcgen05.ld" was not produced

func.func @unexpected(%s: !llvm.ptr<3>) {
  tcgen05.alloc %s, 48 : !llvm.ptr<3>
  func.return
}

// -----

func.func @missing(%s: !llvm.ptr<3>) {
  // expected-error@+1 {{nCols must be a power of 2}}
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  func.return
}

// -----

func.func @wrong_line() {
  // expected-error@+1 {{cta_group must be 1 or 2}}
  tcgen05.wait load
  tcgen05.relinquish_alloc_permit cta_group(3)
  func.return
}

// -----

func.func @wrong_text(%a: i32) {
  // expected-error@+1 {{pack::16b is only valid on tcgen05.ld}}
  %r = tcgen05.ld %a shape_32x32b x1 unpack : vector<1xi32>
  func.return
}
