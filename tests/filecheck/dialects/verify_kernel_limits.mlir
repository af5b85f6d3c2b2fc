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

func.func @k(%t: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 1024, 1, 1>} {
  // expected-error@+1 {{this message needs 128 registers per thread, but a CTA of 1024 threads has at most 64 (65536 registers per SM)}}
  %r = tcgen05.ld %t shape_32x32b x128 : vector<128xi32>
  tcgen05.wait load
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k(%t: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the cta_group::1 op}}
  tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  // expected-error@+1 {{this kernel mixes cta_group::2 with cta_group::1: every tcgen05 instruction of a kernel must use the same cta_group}}
  tcgen05.dealloc %t, 32 cta_group(2)
  func.return
}

// -----

// expected-note@+1 {{'@big' takes 4194304 bytes}}
llvm.mlir.global internal @big() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<1048576 x i32>
// expected-error@+1 {{the kernel's shared globals take at least 4194304 bytes; a CTA has at most 232448 bytes of shared memory}}
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %p = llvm.mlir.addressof @big : !llvm.ptr<3>
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %n = llvm.mlir.constant(1472 : i32) : i32
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 1472}}
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %n = llvm.mlir.constant(129 : i32) : i32
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 129}}
  nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  llvm.return
}

// -----

// The limits themselves are legal.
llvm.mlir.global internal @fits() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<58112 x i32>
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 8, 4>, nvvm.maxnreg = 64 : i32, nvvm.minctasm = 1 : i32} {
  %p = llvm.mlir.addressof @fits : !llvm.ptr<3>
  llvm.return
}
