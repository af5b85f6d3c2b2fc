// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op must reference a global defined by _, _ or _ or _

// The 16x32bx2 half-split immediate is added to the whole 32-bit address, so a negative one
// moves threads 16..31 up (lanes) or left (columns): a signed distance, not a huge lane.

// taddr at lane 16 of the warp's quarter, offset -16 lanes: the upper half reads lanes 0..15.
func.func @negative_lane_offset(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %c16l = arith.constant 1048576 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  %t16 = arith.addi %t, %c16l : i32
  %v = tcgen05.ld %t16, offset 65535 shape_16x32bx2 x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}

