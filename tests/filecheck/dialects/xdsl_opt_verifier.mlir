// RUN: not xdsl-opt %s 2>&1 | filecheck %s

// Our verifiers run under plain xdsl-opt too (xdsl-opt reports in its own format).

// CHECK: nCols must be a power of 2 in [32, 512], got 48
func.func @k(%s: !llvm.ptr<3>) {
  tcgen05.alloc %s, 48 : !llvm.ptr<3>
  func.return
}
