// fuzz finding (issue 14): ptxas-rejects [pipeline-ptx] ptxas _ line _; fatal   : Parsing error near _: syntax error


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Accesses to disjoint cells (columns 0-7, 8-15, lanes 16-31 of 16-lane shapes) and to a
// different allocation need no wait.
// Only the st to the second allocation is in the columns the first dealloc frees.
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @disjoint() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, -2147483648>} {
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

