// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// tcgen05.alloc writes the TMEM address into a 32-bit slot in shared memory.

func.func @k(%s: i32) {
  // expected-error@+1 {{the address slot must be shared memory, !llvm.ptr<3> or memref<1xi32, 3>, got i32}}
  tcgen05.alloc %s, 32 : i32
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<1>) {
  // expected-error@+1 {{the address slot must be shared memory, !llvm.ptr<3> or memref<1xi32, 3>, got !llvm.ptr<1>}}
  tcgen05.alloc %s, 32 : !llvm.ptr<1>
  func.return
}

// -----

func.func @k(%s: !llvm.ptr) {
  // expected-error@+1 {{got !llvm.ptr}}
  tcgen05.alloc %s, 32 : !llvm.ptr
  func.return
}

// -----

func.func @k(%s: memref<1xi32>) {
  // expected-error@+1 {{got memref<1xi32>}}
  tcgen05.alloc %s, 32 : memref<1xi32>
  func.return
}

// -----

func.func @k(%s: memref<2xi32, 3>) {
  // expected-error@+1 {{got memref<2xi32, 3 : i64>}}
  tcgen05.alloc %s, 32 : memref<2xi32, 3>
  func.return
}

// -----

func.func @k(%s: memref<1xi64, 3>) {
  // expected-error@+1 {{got memref<1xi64, 3 : i64>}}
  tcgen05.alloc %s, 32 : memref<1xi64, 3>
  func.return
}
