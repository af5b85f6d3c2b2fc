// fuzz finding (issue 14): iree-opt-rejects [pipeline-nvvm] alignment attribute is not a power of _


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 513 : i64} : i32

// Rule 2 (store completion): an ld of cells a pending st writes needs wait::st first.
func.func @rule2() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  tcgen05.wait load
  tcgen05.dealloc %t, 32
  func.return
}

