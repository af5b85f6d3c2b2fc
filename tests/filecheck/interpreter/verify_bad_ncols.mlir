// RUN: tmem-run %s --verify-diagnostics

// An upstream NVVM alloc/dealloc whose column count is a constant operand: upstream's verifier
// accepts 48, the ISA does not (a power of 2 in [32, 512]); the interpreter checks it like a
// count computed at run time.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c = llvm.mlir.constant(48 : i32) : i32
  // expected-error@+1 {{warp 0: nCols must be a power of 2 in [32, 512], got 48}}
  nvvm.tcgen05.alloc %s, %c : !llvm.ptr<3>, i32
  // The alloc that failed wrote no address: the slot holds nothing.
  // expected-error@+1 {{warp 0 (thread 0) reads @slot (byte 0), which nothing wrote: shared memory starts undefined}}
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  // expected-error@+1 {{warp 0: nCols must be a power of 2 in [32, 512], got 48}}
  nvvm.tcgen05.dealloc %p, %c : !llvm.ptr<6>, i32
  llvm.return
}
