// RUN: tmem-opt %s --split-input-file -p tmem-insert-waits | filecheck %s
// RUN: tmem-opt %s --split-input-file -p 'tmem-insert-waits{ptx-version=9.4}' | filecheck %s --check-prefix=PTX94
// RUN: tmem-opt %s --split-input-file -p 'tmem-insert-waits{conservative=true}' | filecheck %s --check-prefix=CONS

// Cases where tmem-insert-waits inserts nothing (or, with the conservative option, only the
// seed's wait-before-use), and one wait that covers many loads.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Register reads before wait::ld are legal (the ISA honors the register dependency); lds of
// the same cells need nothing between them; a wait already in place is not repeated.
// CHECK-LABEL: func.func @reads_only
// CHECK:       %a = tcgen05.ld %t
// CHECK-NEXT:  %b = tcgen05.ld %t
// CHECK-NEXT:  %sum = arith.addi %a, %b
// CHECK-NEXT:  tcgen05.wait load
// CHECK-NEXT:  tcgen05.dealloc
// CONS-LABEL:  func.func @reads_only
// CONS:        %b = tcgen05.ld %t
// CONS-NEXT:   tcgen05.wait load {tmem.rule = "rule 0 (conservative register use)"}
// CONS-NEXT:   %sum = arith.addi %a, %b
// CONS-NEXT:   tcgen05.wait load
func.func @reads_only() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %a = tcgen05.ld %t shape_32x32b x8 : vector<8xi32>
  %b = tcgen05.ld %t shape_32x32b x8 : vector<8xi32>
  %sum = arith.addi %a, %b : vector<8xi32>
  tcgen05.wait load
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Accesses to disjoint cells (columns 0-7, 8-15, lanes 16-31 of 16-lane shapes) and to a
// different allocation need no wait.
// CHECK-LABEL: func.func @disjoint
// CHECK:       tcgen05.st %z, %t
// CHECK-NEXT:  %v = tcgen05.ld %t8
// CHECK-NEXT:  tcgen05.st %z16, %t16
// CHECK-NEXT:  %h = tcgen05.ld %upper
// CHECK-NEXT:  tcgen05.st %v, %u
// Only the st to the second allocation is in the columns the first dealloc frees.
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT:  tcgen05.dealloc %u, 32
// CHECK-NEXT:  tcgen05.wait load
// CHECK-NEXT:  tcgen05.wait store
// CHECK-NEXT:  tcgen05.dealloc %t, 64
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @disjoint() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %lane16 = arith.constant 1048576 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<8xi32>
  %z16 = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  tcgen05.alloc %s2, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %u = llvm.load %s2 : !llvm.ptr<3> -> i32
  %t8 = arith.addi %t, %c8 : i32
  %t16 = arith.addi %t, %c16 : i32
  %upper = arith.addi %t16, %lane16 : i32
  tcgen05.st %z, %t shape_32x32b x8 : vector<8xi32>
  %v = tcgen05.ld %t8 shape_32x32b x8 : vector<8xi32>
  // 16x64b.x4 covers lanes 0-15 x columns 16-23; the ld below lanes 16-31 x columns 16-23.
  tcgen05.st %z16, %t16 shape_16x64b x4 : vector<4xi32>
  %h = tcgen05.ld %upper shape_16x64b x4 : vector<4xi32>
  tcgen05.st %v, %u shape_32x32b x8 : vector<8xi32>
  tcgen05.dealloc %u, 32
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 64
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// PTX 9.4 pipelines same-warp st->ld, st->st and ld->st: only the dealloc needs waits.
// PTX94-LABEL: func.func @pipelined
// PTX94:       tcgen05.st %z, %t
// PTX94-NEXT:  tcgen05.st %z, %t
// PTX94-NEXT:  %v = tcgen05.ld %t
// PTX94-NEXT:  tcgen05.st %v, %t
// PTX94-NEXT:  tcgen05.wait load {tmem.rule = "rule 4 (dealloc)"}
// PTX94-NEXT:  tcgen05.wait store {tmem.rule = "rule 4 (dealloc)"}
// PTX94-NEXT:  tcgen05.dealloc
// CHECK-LABEL: func.func @pipelined
// CHECK:       tcgen05.st %z, %t
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:  tcgen05.st %z, %t
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:  %v = tcgen05.ld %t
// CHECK-NEXT:  tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:  tcgen05.st %v, %t
func.func @pipelined() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<2xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %z, %t shape_32x32b x2 : vector<2xi32>
  tcgen05.st %z, %t shape_32x32b x2 : vector<2xi32>
  %v = tcgen05.ld %t shape_32x32b x2 : vector<2xi32>
  tcgen05.st %v, %t shape_32x32b x2 : vector<2xi32>
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Batching (as ThunderKittens does): four loads, then one wait::ld covers them all before
// the st that rewrites the cells of the first.
// CHECK-LABEL: func.func @batch
// CHECK:       %d = tcgen05.ld
// CHECK-NEXT:  tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:  tcgen05.st %a, %t
// CHECK-NOT:   tcgen05.wait load
// CHECK:       tcgen05.wait store {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT:  tcgen05.dealloc
func.func @batch() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c24 = arith.constant 24 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %t8 = arith.addi %t, %c8 : i32
  %t16 = arith.addi %t, %c16 : i32
  %t24 = arith.addi %t, %c24 : i32
  %a = tcgen05.ld %t shape_32x32b x8 : vector<8xi32>
  %b = tcgen05.ld %t8 shape_32x32b x8 : vector<8xi32>
  %c = tcgen05.ld %t16 shape_32x32b x8 : vector<8xi32>
  %d = tcgen05.ld %t24 shape_32x32b x8 : vector<8xi32>
  tcgen05.st %a, %t shape_32x32b x8 : vector<8xi32>
  tcgen05.st %b, %t8 shape_32x32b x8 : vector<8xi32>
  tcgen05.st %c, %t16 shape_32x32b x8 : vector<8xi32>
  tcgen05.st %d, %t24 shape_32x32b x8 : vector<8xi32>
  tcgen05.dealloc %t, 32
  func.return
}
