// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Verifier messages of nvvm.tcgen05.ld / st: register vectors, num legality, the 16x32bx2 offset.

llvm.func @k(%t: !llvm.ptr<6>) {
  // expected-error@+1 {{registers must be vector<Nxi32>, got vector<1xf32>}}
  %r = nvvm.tcgen05.ld %t shape = shape_32x32b : vector<1xf32>
  llvm.return
}

// -----

// (In a func.func: LLVM functions take no multi-dimensional vectors.)
func.func @k(%t: !llvm.ptr<6>, %v: vector<2x2xi32>) {
  // expected-error@+1 {{registers must be vector<Nxi32>, got vector<2x2xi32>}}
  nvvm.tcgen05.st %t, %v shape = shape_32x32b : vector<2x2xi32>
  func.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>) {
  // expected-error@+1 {{shape 16x128b moves 2 registers per repetition; 1 is not a multiple}}
  %r = nvvm.tcgen05.ld %t shape = shape_16x128b : vector<1xi32>
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>, %v: vector<6xi32>) {
  // expected-error@+1 {{shape 16x256b moves 4 registers per repetition; 6 is not a multiple}}
  nvvm.tcgen05.st %t, %v shape = shape_16x256b : vector<6xi32>
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>) {
  // expected-error@+1 {{num must be one of x1, x2, x4, ..., x128, got x3}}
  %r = nvvm.tcgen05.ld %t shape = shape_16x64b : vector<3xi32>
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>) {
  // expected-error@+1 {{shape 16x128b with num x128 needs 256 registers per thread (num x 2), more than the limit of 128}}
  %r = nvvm.tcgen05.ld %t shape = shape_16x128b : vector<256xi32>
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>, %v: vector<256xi32>) {
  // expected-error@+1 {{shape 16x256b with num x64 needs 256 registers per thread (num x 4), more than the limit of 128}}
  nvvm.tcgen05.st %t, %v shape = shape_16x256b : vector<256xi32>
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>) {
  // expected-error@+1 {{shape_16x32bx2 requires the half-split offset operand}}
  %r = nvvm.tcgen05.ld %t shape = shape_16x32bx2 : vector<1xi32>
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>) {
  %off = llvm.mlir.constant(16 : i64) : i64
  // expected-error@+1 {{the offset operand is only allowed with shape_16x32bx2}}
  %r = nvvm.tcgen05.ld %t, %off shape = shape_16x64b : vector<1xi32>
  llvm.return
}

// -----

llvm.func @k(%t: !llvm.ptr<6>, %v: vector<1xi32>) {
  %off = llvm.mlir.constant(16 : i64) : i64
  // expected-error@+1 {{the offset operand is only allowed with shape_16x32bx2}}
  nvvm.tcgen05.st %t, %v, %off unpack shape = shape_32x32b : vector<1xi32>
  llvm.return
}

// -----

// The offset is the PTX immediate immHalfSplitoff: it must be a constant.
llvm.func @k(%t: !llvm.ptr<6>, %off: i64) {
  // expected-error@+1 {{the half-split offset must come from a constant}}
  %r = nvvm.tcgen05.ld %t, %off shape = shape_16x32bx2 : vector<1xi32>
  llvm.return
}

// -----

// The TMEM address is an !llvm.ptr<6>: a shared-memory pointer is a type error at parse time.
llvm.func @k(%p: !llvm.ptr<3>) {
  // expected-error@+1 {{operand is used with type !llvm.ptr<6>, but has been previously used or defined with type !llvm.ptr<3>}}
  %r = nvvm.tcgen05.ld %p shape = shape_32x32b : vector<1xi32>
  llvm.return
}
