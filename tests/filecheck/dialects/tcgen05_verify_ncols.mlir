// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// nCols of tcgen05.alloc / tcgen05.dealloc: a power of 2 in [32, 512].

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 48}}
  tcgen05.alloc %s, 48 : !llvm.ptr<3>
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 16}}
  tcgen05.alloc %s, 16 : !llvm.ptr<3>
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 0}}
  tcgen05.alloc %s, 0 : !llvm.ptr<3>
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>) {
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got -32}}
  tcgen05.alloc %s, -32 : !llvm.ptr<3>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 1024}}
  tcgen05.dealloc %a, 1024
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 96}}
  tcgen05.dealloc %a, 96 cta_group(2)
  func.return
}

// -----

// Every chunk is verified on its own: two bad ops in one chunk give two errors.
func.func @k(%s: !llvm.ptr<3>, %a: i32) {
  // expected-error@+1 {{got 33}}
  tcgen05.alloc %s, 33 : !llvm.ptr<3>
  // expected-error@+1 {{got 511}}
  tcgen05.dealloc %a, 511
  func.return
}
