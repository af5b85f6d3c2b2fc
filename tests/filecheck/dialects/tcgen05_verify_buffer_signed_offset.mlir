// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Constants added to a buffer address are one signed 32-bit distance: base + 64 + (-32) is
// column 32 of the allocation (before, -32 was read as lane 65535, column 65504, and the
// buffer was said to reach lane 65662).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %c64 = arith.constant 64 : i32
  %cm32 = arith.constant -32 : i32
  %a64 = arith.addi %a, %c64 : i32
  %a32 = arith.addi %a64, %cm32 : i32
  %b = tcgen05.decl_buffer %a32 : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

// A lane step there and back again is no step at all.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %down = arith.constant 2097152 : i32
  %up = arith.constant -2097152 : i32
  %a1 = arith.addi %a, %down : i32
  %a2 = arith.addi %a1, %up : i32
  %b = tcgen05.decl_buffer %a2 : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

// A buffer that starts before its allocation's first column.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %cm1 = arith.constant -1 : i32
  %a1 = arith.addi %a, %cm1 : i32
  // expected-error@+1 {{buffer starts at column -1 of its allocation, before the allocation's first column}}
  %b = tcgen05.decl_buffer %a1 : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

// A buffer that starts above lane 0.
func.func @k(%a: i32) {
  %up = arith.constant -1048576 : i32
  %a1 = arith.addi %a, %up : i32
  // expected-error@+1 {{buffer starts at TMEM lane -16 of its base address, before lane 0}}
  %b = tcgen05.decl_buffer %a1 : !tcgen05.tmem<64x32xf32, S[(64, 32) : (1@TLane, 1@TCol)]>
  func.return
}
