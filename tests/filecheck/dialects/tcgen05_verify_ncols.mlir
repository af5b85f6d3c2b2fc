// RUN: tmem-opt %s --split-input-file --verify-diagnostics

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 48}}
  tcgen05.alloc %s, 48 : !llvm.ptr<3>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 1024}}
  tcgen05.dealloc %a, 1024
  func.return
}
