// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op expects type to be a valid element type for an LLVM global

// Warps 0 and 1 each allocate, use and free 64 columns with no barrier between them. Whichever
// runs first frees before the other allocates in this schedule, but nothing in the program
// orders the two: one warp of a CTA allocates, never two concurrently.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : index

func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %w1 = arith.cmpi eq, %warp, %c1 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 64 : !llvm.ptr<3>
    %a = llvm.load %s : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 64
  }
  scf.if %w1 {
    tcgen05.alloc %s2, 64 : !llvm.ptr<3>
    %b = llvm.load %s2 : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 64
  }
  func.return
}
