// RUN: not tmem-opt %s 2>&1 | filecheck %s
// RUN: not tmem-opt %s -o %t.out 2>&1 | filecheck %s
// RUN: not test -e %t.out

// A parse error is reported at the token the parser stopped on, with the same format.

// CHECK-NOT: Traceback
// CHECK: tmem_opt_parse_error_format.mlir:[[# @LINE + 5]]:22: error: Expected `shape_16x64b`, `shape_16x128b`, `shape_16x256b`, `shape_32x32b`, or `shape_16x32bx2`.
// CHECK-NEXT: {{^}}  %r = tcgen05.ld %a shape_16x1b x1 : vector<1xi32>{{$}}
// CHECK-NEXT: {{^}}                     ^{{$}}
// CHECK-NOT: Traceback
func.func @k(%a: i32) {
  %r = tcgen05.ld %a shape_16x1b x1 : vector<1xi32>
  func.return
}
