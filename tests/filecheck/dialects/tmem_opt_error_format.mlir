// RUN: not tmem-opt %s 2>&1 | filecheck %s
// RUN: not tmem-opt %s -o %t.out 2>&1 | filecheck %s
// RUN: not test -e %t.out

// A verifier error is printed MLIR-style: file:line:col, the source line and a caret under the
// op; the exit code is non-zero, nothing else is printed (no Python traceback), and with -o no
// output file is left behind.

// CHECK-NOT: Traceback
// CHECK: tmem_opt_error_format.mlir:[[# @LINE + 6]]:3: error: nCols must be a power of 2 in [32, 512], got 48
// CHECK-NEXT: {{^}}  tcgen05.alloc %s, 48 : !llvm.ptr<3>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK-NOT: builtin.module
// CHECK-NOT: Traceback
func.func @k(%s: !llvm.ptr<3>) {
  tcgen05.alloc %s, 48 : !llvm.ptr<3>
  func.return
}
