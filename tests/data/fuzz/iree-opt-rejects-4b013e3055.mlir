// fuzz finding (issue 14): iree-opt-rejects [pipeline-nvvm] _ op attribute _ failed to satisfy constraint: _-bit signless integer attribute whose value is non-negative


llvm.mlir.global internal @slot() {addr_space = -29 : i32, alignment = 4 : i64} : i32

// Rules 3 and 4 across warps: warps 1-3 hand their lds to warp 0's dealloc through the barrier
// without waiting for them. Fences are in place.
func.func @rule4_across_warps() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}

