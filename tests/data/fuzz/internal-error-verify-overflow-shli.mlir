// fuzz finding (issue 14): tmem-verify OverflowError in forms.warp_bounds (arith.shli of the TMEM base by a lane offset): now unbounded, a warning


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The same two warpgroups with no barrier at all between the st and the ld.
func.func @no_barrier_between_warps() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %z = arith.constant dense<0> : vector<1xi32>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %wg0 = arith.cmpi ult, %warp, %c4 : i32
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
  %t = arith.shli %base, %l : i32
  scf.if %wg0 {
    tcgen05.st %z, %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
  } else {
    %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}

