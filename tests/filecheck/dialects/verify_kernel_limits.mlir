// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Kernels that ptxas rejects or that can never launch are errors at the op (kernel_checks.py).

// expected-error@+1 {{'tcgen05.reqntid' asks for 524288 threads (128 x 1 x 4096); a CTA has at most 1024 threads}}
func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 4096>} {
  func.return
}

// -----

// expected-error@+1 {{'nvvm.reqntid' sizes must be positive 32-bit integers, got 32, 0, 1}}
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 0, 1>} {
  llvm.return
}

// -----

// expected-error@+1 {{'tcgen05.reqntid' must be an array<i32: ...> of 1 to 3 sizes, got array<i64: 128, 1, 1>}}
func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i64: 128, 1, 1>} {
  func.return
}

// -----

// expected-error@+1 {{'nvvm.minctasm' must be an integer (e.g. nvvm.minctasm = 1 : i32), got array<i32: 2>}}
llvm.func @k() attributes {nvvm.kernel, nvvm.minctasm = array<i32: 2>} {
  llvm.return
}

// -----

// expected-error@+1 {{'nvvm.maxnreg' must be a positive 32-bit integer, got 0}}
llvm.func @k() attributes {nvvm.kernel, nvvm.maxnreg = 0 : i32} {
  llvm.return
}

// -----

// expected-error@+1 {{'nvvm.maxntid' sizes must be positive 32-bit integers, got 0}}
llvm.func @k() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 0>} {
  llvm.return
}

// -----

// The limits themselves are legal.
llvm.mlir.global internal @fits() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<58112 x i32>
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 8, 4>, nvvm.maxnreg = 64 : i32, nvvm.minctasm = 1 : i32} {
  %p = llvm.mlir.addressof @fits : !llvm.ptr<3>
  llvm.return
}
