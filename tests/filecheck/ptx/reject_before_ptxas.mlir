// RUN: tmem-opt %s -t ptx --split-input-file --verify-diagnostics
// RUN: not tmem-opt %s -p tmem-verify --split-input-file 2>&1 | filecheck %s --check-prefix=VERIFY

// Valid MLIR (iree-opt accepts it) that ptxas rejects: the PTX target reports it at our op
// before ptxas runs (kernel_checks.kernel_diagnostics; tests/test_kernel_checks.py shows that
// ptxas rejects the PTX of each one), and tmem-verify reports the same rules.
// VERIFY-DAG: mlir:14:3: error: this message needs 128 registers per thread
// VERIFY-DAG: mlir:26:3: error: tcgen05.dealloc uses cta_group::2 but this kernel already uses cta_group::1
// VERIFY-DAG: mlir:48:3: error: nCols must be a power of 2 in [32, 512], got 1472
// VERIFY-DAG: mlir:57:3: error: nCols must be a power of 2 in [32, 512], got 129

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
  // expected-note@+1 {{cta_group::1 is used here}}
  tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  // expected-error@+1 {{tcgen05.dealloc uses cta_group::2 but this kernel already uses cta_group::1: all tcgen05 instructions of a kernel use the same cta_group}}
  tcgen05.dealloc %t, 32 cta_group(2)
  func.return
}

// -----
// expected-note@+1 {{'@big' takes 4194304 bytes}}
llvm.mlir.global internal @big() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<1048576 x i32>
// expected-error@+1 {{the kernel's shared globals take at least 4194304 bytes; a CTA has at most 232448 bytes of shared memory}}
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %p = llvm.mlir.addressof @big : !llvm.ptr<3>
  %i = llvm.mlir.constant(1048575 : i32) : i32
  %last = llvm.getelementptr %p[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  llvm.store %i, %last : i32, !llvm.ptr<3>
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
llvm.func @k(%a: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %t = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  %n = llvm.mlir.constant(129 : i32) : i32
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 129}}
  nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  llvm.return
}

// -----

llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>} {
  %id = llvm.mlir.constant(1 : i32) : i32
  %n = llvm.mlir.constant(48 : i32) : i32
  // expected-error@+1 {{a barrier's thread count must be a positive multiple of the warp size (32), got 48}}
  nvvm.barrier id = %id number_of_threads = %n
  llvm.return
}

// -----

llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>} {
  %id = llvm.mlir.constant(16 : i32) : i32
  %n = llvm.mlir.constant(64 : i32) : i32
  // expected-error@+1 {{barrier id 16 is out of range: a CTA has barriers 0..15}}
  nvvm.barrier.arrive id = %id number_of_threads = %n
  llvm.return
}
