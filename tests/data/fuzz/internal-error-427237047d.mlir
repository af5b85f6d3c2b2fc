// fuzz finding (issue 14): internal-error [tmem-run] _ error: interpreter internal error while executing _ in warp _: KeyError: <OpResult[i_] name_hint: b, index: _, operation: llvm.load, uses: _>

// An upstream NVVM alloc/dealloc whose column count is a constant operand: upstream's verifier
  %b = llvm.load %s : !llvm.ptr<3> -> i32
// count computed at run time.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c = llvm.mlir.constant(48 : i32) : i32
  nvvm.tcgen05.alloc %s, %c : !llvm.ptr<3>, i32
// accepts 48, the ISA does not (a power of 2 in [32, 512]); the interpreter checks it like a
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %c : !llvm.ptr<6>, i32
  llvm.return
}
