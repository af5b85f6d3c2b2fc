// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Inputs that crashed xDSL's parser (issue 14's fuzz campaign) are located errors.

// expected-error@+1 {{'llvm.mlir.global' op: malformed syntax or attribute}}
llvm.mlir.global internal @s() {addr_space = 3 : i32, alignment = 4 : f16} : i32

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op: floating-point literal out of the range of its type}}
  %c = arith.constant 2097152 : f16
  func.return
}

// -----

func.func @f() {
  cf.br ^bb1
^bb1:
  cf.br ^bb1
// expected-error@+1 {{redefinition of block '^bb1'}}
^bb1:
  func.return
}

// -----

// expected-error@+1 {{integer bitwidth is limited to 16777215 bits}}
func.func @f(%a: i123456789012345678901234567890) {
  func.return
}

// -----

// expected-error@+1 {{integer bitwidth is limited to 16777215 bits}}
"test.op"() {a = array<i9223372036854775807: 1>} : () -> ()

// -----

// expected-error@+1 {{attributes and types nested more than 64 deep are not supported}}
"test.op"() {a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} : () -> ()

// -----

func.func @k(%c: i1) {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
scf.if %c {
// expected-error@-1 {{regions nested more than 64 deep are not supported}}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
func.return
}
