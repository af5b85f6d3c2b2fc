// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op symbol's parent must have the SymbolTable trait


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Warp 0 allocates; the other warps read the slot with no barrier in between.
func.func @slot_read_before_barrier() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 1023 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %a, 32
  }
  func.return
}

