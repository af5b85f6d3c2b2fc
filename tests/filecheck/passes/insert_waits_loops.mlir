// RUN: tmem-opt %s --split-input-file -p tmem-insert-waits | filecheck %s
// RUN: tmem-opt %s --split-input-file -p tmem-insert-waits,tmem-verify --verify-diagnostics

// tmem-insert-waits over loops and branches: a wait stays out of a loop body when what it
// waits for was issued before the loop, goes into the body when iterations conflict with each
// other, and into a branch only when only that branch needs it.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Stores of disjoint chunks in one loop, loads of them in the next: no wait in either body,
// one wait::st between the loops.
// CHECK-LABEL: func.func @hoisted
// CHECK:       scf.for
// CHECK-NOT:   tcgen05.wait
// CHECK:       tcgen05.st
// CHECK-NEXT:  }
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:  scf.for
// CHECK-NOT:   tcgen05.wait
// CHECK:       scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  tcgen05.wait load {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT:  tcgen05.dealloc
func.func @hoisted() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : i32
  %z = arith.constant dense<1> : vector<32xi32>
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 256 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %col = arith.muli %ii, %c32 : i32
    %a = arith.addi %t, %col : i32
    tcgen05.st %z, %a shape_32x32b x32 : vector<32xi32>
  }
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (vector<32xi32>) {
    %ii = arith.index_cast %i : index to i32
    %col = arith.muli %ii, %c32 : i32
    %a = arith.addi %t, %col : i32
    %v = tcgen05.ld %a shape_32x32b x32 : vector<32xi32>
    %n = arith.addi %acc, %v : vector<32xi32>
    scf.yield %n : vector<32xi32>
  }
  tcgen05.dealloc %t, 256
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Every iteration rewrites the same cells: the waits must be inside the body.
// CHECK-LABEL: func.func @same_cells_each_iteration
// CHECK:       scf.for
// CHECK-NEXT:    tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:    tcgen05.st %acc, %t
// CHECK-NEXT:    tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:    %v = tcgen05.ld %t
func.func @same_cells_each_iteration(%n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<1> : vector<4xi32>
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xi32>) {
    tcgen05.st %acc, %t shape_32x32b x4 : vector<4xi32>
    %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
    scf.yield %v : vector<4xi32>
  }
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Nested loops: the wait::st goes between the inner loops (out of the inner body, still
// inside the outer one); the next outer iteration's stores meet this iteration's loads, so a
// wait::ld goes before the first inner loop, not into its body.
// CHECK-LABEL: func.func @nested
// CHECK:       scf.for %i
// CHECK-NEXT:    tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:    scf.for %j
// CHECK-NOT:     tcgen05.wait
// CHECK:         tcgen05.st
// CHECK-NEXT:    }
// CHECK-NEXT:    tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:    scf.for %j
// CHECK-NOT:     tcgen05.wait
// CHECK:         tcgen05.ld
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @nested(%tiles: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : i32
  %z = arith.constant dense<1> : vector<32xi32>
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %c0 to %tiles step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %col = arith.muli %jj, %c32 : i32
      %a = arith.addi %t, %col : i32
      tcgen05.st %z, %a shape_32x32b x32 : vector<32xi32>
    }
    scf.for %j = %c0 to %c4 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %col = arith.muli %jj, %c32 : i32
      %a = arith.addi %t, %col : i32
      %v = tcgen05.ld %a shape_32x32b x32 : vector<32xi32>
    }
  }
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 128
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Only the branch that rewrites the loaded cells waits.
// CHECK-LABEL: func.func @branch
// CHECK:       scf.if %c
// CHECK-NEXT:    tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:    tcgen05.st %v, %t
// CHECK-NEXT:  } else {
// CHECK-NEXT:    tcgen05.st %v, %t8
// CHECK-NEXT:  }
func.func @branch(%c: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c8 = arith.constant 8 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %t8 = arith.addi %t, %c8 : i32
  %v = tcgen05.ld %t shape_32x32b x8 : vector<8xi32>
  scf.if %c {
    tcgen05.st %v, %t shape_32x32b x8 : vector<8xi32>
  } else {
    tcgen05.st %v, %t8 shape_32x32b x8 : vector<8xi32>
  }
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// scf.while: the loads of one iteration meet the stores of the next (same cells).
// CHECK-LABEL: func.func @while_loop
// CHECK:       } do {
// CHECK:         tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:    tcgen05.st %z, %t
// CHECK-NEXT:    tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:    %v = tcgen05.ld %t
func.func @while_loop(%limit: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<1> : vector<4xi32>
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %r = scf.while (%k = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %k, %limit : i32
    scf.condition(%go) %k : i32
  } do {
  ^bb0(%k2: i32):
    tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
    %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
    %k3 = arith.addi %k2, %c1 : i32
    scf.yield %k3 : i32
  }
  tcgen05.wait load
  tcgen05.dealloc %t, 32
  func.return
}

// -----

// A store before the loop and a read-modify-write of the same cells in the body: the body needs
// a wait::st before its ld on every iteration, and that wait also covers the store before the
// loop, so none goes in front of the loop (found by review: one used to be hoisted there too).
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: func.func @carried
// CHECK:       tcgen05.st
// CHECK-NEXT:  scf.for
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:  tcgen05.ld
// CHECK-NEXT:  arith.addi
// CHECK-NEXT:  tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:  tcgen05.st
// CHECK-NEXT:  scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT:  tcgen05.dealloc
func.func @carried(%n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<1> : vector<4xi32>
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %init, %t shape_32x32b x4 : vector<4xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<4xi32>) {
    %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
    %w = arith.addi %v, %acc : vector<4xi32>
    tcgen05.st %w, %t shape_32x32b x4 : vector<4xi32>
    scf.yield %w : vector<4xi32>
  }
  tcgen05.dealloc %t, 32
  func.return
}
