// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// A buffer declared on an allocated address must fit that allocation (columns) and TMEM (lanes).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{buffer needs columns [0, 256) of its allocation but the allocation has 128 columns}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

// A constant column offset added to the address counts.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 256 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %c128 = arith.constant 128 : i32
  %a2 = arith.addi %a, %c128 : i32
  // expected-error@+1 {{buffer needs columns [0, 384) of its allocation but the allocation has 256 columns}}
  %b = tcgen05.decl_buffer %a2 : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

// So does a column offset in the layout.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{buffer needs columns [0, 96) of its allocation but the allocation has 64 columns}}
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)] + 64@TCol>
  func.return
}

// -----

// A constant lane offset (lane 32 = 32 << 16) pushes a 128-lane buffer past lane 127.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 256 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %lane32 = arith.constant 2097152 : i32
  %a2 = arith.addi %lane32, %a : i32
  // expected-error@+1 {{buffer reaches TMEM lane 159, beyond the 128 lanes}}
  %b = tcgen05.decl_buffer %a2 : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  func.return
}

// -----

// The same buffer in a big enough allocation is fine (no diagnostic).
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 512 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %c256 = arith.constant 256 : i32
  %a2 = arith.addi %a, %c256 : i32
  %b = tcgen05.decl_buffer %a2 : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  func.return
}
