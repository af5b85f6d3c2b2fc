// RUN: tmem-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// Rules of upstream MLIR that xDSL's verifier lacks (tmem_dialect/ir_checks.py): without them we
// would print NVVM that iree-opt rejects, and the interpreter would crash (issue 14).

func.func @f(%x: i32) -> i32 {
  // expected-error@+1 {{operand #0 is used before it is defined (does not dominate this use)}}
  %a = arith.addi %b, %x : i32
  // expected-note@+1 {{operand defined here}}
  %b = arith.addi %x, %x : i32
  func.return %a : i32
}

// -----

llvm.func @f(%c: i1) {
  llvm.cond_br %c, ^a, ^b
^a:
  // expected-note@+1 {{operand defined here}}
  %v = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^b
^b:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %w = llvm.add %v, %v : i32
  llvm.return
}

// -----

// expected-error@+1 {{'func.func' op has an empty block: a block needs at least a terminator}}
func.func @f() {
  cf.br ^bb1
^bb1:
}

// -----

// expected-note@+1 {{the first definition}}
llvm.func @g() {
  llvm.return
}
// expected-error@+1 {{redefinition of symbol '@g'}}
llvm.func @g() {
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error@+1 {{'llvm.mlir.addressof' op must reference a global or function: '@nope' is not defined}}
  %x = llvm.mlir.addressof @nope : !llvm.ptr<3>
  llvm.return
}

// -----

// expected-note@+1 {{the global}}
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @f() {
  // expected-error@+1 {{'llvm.mlir.addressof' op pointer address space 0 must match the address space 3 of global '@slot'}}
  %x = llvm.mlir.addressof @slot : !llvm.ptr
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error@+1 {{'llvm.mlir.global' op must appear at the module level, not inside 'llvm.func'}}
  llvm.mlir.global internal @s() {addr_space = 3 : i32, alignment = 4 : i64} : i32
  llvm.return
}

// -----

// expected-error@+1 {{'llvm.mlir.global' op alignment 44 is not a power of 2}}
llvm.mlir.global internal @s() {addr_space = 3 : i32, alignment = 44 : i64} : i32

// -----

// expected-error@+1 {{'llvm.mlir.global' op address space -1 is out of range}}
llvm.mlir.global internal @s() {addr_space = -1 : i32} : i32

// -----

// expected-error@+1 {{address space 4294967296 of !llvm.ptr<4294967296> is out of range}}
llvm.func @f(%p: !llvm.ptr<4294967296>) {
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error@+1 {{'llvm.mlir.constant' op the value's type i64 does not match the result type i32}}
  %a = llvm.mlir.constant(5 : i64) : i32
  llvm.return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.bitcast' op result must be a signless integer or float of a fixed width, got index}}
  %x = arith.bitcast %a : i32 to index
  func.return
}

// -----

// A constant index of 2^31 wraps to xDSL's marker of a dynamic index, which printing trips over.
llvm.func @f(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'llvm.getelementptr' op has 1 index operands but rawConstantIndices marks 2 dynamic indices}}
  %q = llvm.getelementptr %p[%i, 2147483648] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.array<4 x i32>
  llvm.return
}

// -----

func.func @f(%x: i32) {
  // expected-error@+1 {{operand #0 uses a value defined outside the 'func.func' it is in}}
  %a = "test.op"(%y) : (i32) -> i32
  func.return
}
func.func @g(%z: i32) {
  // expected-note@+1 {{operand defined here}}
  %y = arith.addi %z, %z : i32
  func.return
}
