// fuzz finding (issue 14): ptxas-rejects [ptx] ptxas fatal   : Internal compiler error, please report


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 2147483648 : i64} : i32

// Warp 0 allocates 256, a barrier, then warp 1 allocates 128: ordered, sizes do not grow.
func.func @ordered_by_barrier() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
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
    tcgen05.alloc %s, 256 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w1 {
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
    tcgen05.alloc %s2, 128 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %b = llvm.load %s2 : !llvm.ptr<3> -> i32
  scf.if %w0 {
    tcgen05.dealloc %a, 256
  }
  scf.if %w1 {
    tcgen05.dealloc %b, 128
  }
  func.return
}
