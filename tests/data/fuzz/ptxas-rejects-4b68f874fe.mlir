// fuzz finding (issue 14): ptxas-rejects [ptx] ptxas <emitted PTX>, line _; error   : Argument _ of instruction _: value _ out of range, expected to be in range [_.._]


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// 16 * 2 = 32 columns allocated, 64 freed.
llvm.func @computed_count() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %c = llvm.sub %c16, %c2 : i32
  %c64 = llvm.mlir.constant(64 : i32) : i32
  nvvm.tcgen05.alloc %s, %c : !llvm.ptr<3>, i32
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %c64 : !llvm.ptr<6>, i32
  llvm.return
}

