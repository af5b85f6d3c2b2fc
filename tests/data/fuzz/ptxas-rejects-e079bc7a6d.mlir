// fuzz finding (issue 14): ptxas-rejects [ptx] ptxas _ line _; error   : Argument _ of _ instruction: value must be power of _

// An upstream NVVM alloc/deaant operand: upstream's verifier
// accepts 17179869184, the ISA does not (a power of 2 in [32, 512]); the interpreter checks it like a
// count computed at run time.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c = llvm.mlir.constant(48 : i32) : i32
  nvvm.tcgen05.alloc %s, %c : !llvm.ptr<3>, i32
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %c : !llvm.ptr<6>, i32
  llvm.return
}
