// tcgen05.shift.cta_group::1.down, as PTX ISA 9.7.16.9.3 defines it: "shifting of 32-byte
// elements downwards across all the rows, except the last, by one row", the lane of taddr
// aligned to 32 (implicit shape .31x256b, 9.7.16.2.3). Here: in the 32 lanes from taddr's lane,
// the 8 columns from its column, row r moves to row r + 1 for r < 31; row 0 keeps its value.
//   1. each warp stores tid * 16 + j into column j (0..15) of its lane quarter (32x32b.x16);
//   2. after tcgen05.wait::st, a fence and a barrier, thread 0 shifts lanes 0-31 at columns 0-7
//      and lanes 64-95 at columns 8-15, and commits both to the mbarrier (shift is asynchronous);
//   3. every thread waits for phase 0 and its warp reads its quarter back into `out`
//      (16 words per thread).
// The 16 columns are a tcgen05.buffer: the raw accesses take its tcgen05.buffer_address, plus the
// warp's lane quarter or the second shift's lane 64 / column 8. `tmem-plan-columns` (part of
// `tmem-pipeline`) bounds those offsets (lanes 0-127, columns 0-15 with the accesses' extents),
// checks the shifts' lanes are multiples of 32 (9.7.16.9.3), allocates 32 columns by warp 0 and
// frees them after the read.

llvm.mlir.global internal @shift_done() {addr_space = 3 : i32, alignment = 8 : i64} : i64

func.func @tmem_shift(%out: memref<2048xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %c16 = arith.constant 16 : index
  %lane64_col8 = arith.constant 4194312 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %bar = llvm.mlir.addressof @shift_done : !llvm.ptr<3>
  %tile = tcgen05.buffer : !tcgen05.tmem<128x16xi32, S[(128, 16) : (1@TLane, 1@TCol)]>
  %base = tcgen05.buffer_address %tile [0, 0] : !tcgen05.tmem<128x16xi32, S[(128, 16) : (1@TLane, 1@TCol)]>
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync

  // 1. column j of this thread's lane holds tid * 16 + j
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %first = arith.shli %tid, %c4_i32 : i32
  %splat = vector.broadcast %first : i32 to vector<16xi32>
  %iota = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
  %values = arith.addi %splat, %iota : vector<16xi32>
  tcgen05.st %values, %taddr shape_32x32b x16 : vector<16xi32>
  tcgen05.wait store
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync

  // 2. two shifts, one commit
  scf.if %is_thread0 {
    tcgen05.shift %base
    %second = arith.addi %base, %lane64_col8 : i32
    tcgen05.shift %second
    tcgen05.commit %bar : !llvm.ptr<3>
  }

  // 3. wait for the shifts, read back
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %got = tcgen05.ld %taddr shape_32x32b x16 : vector<16xi32>
  tcgen05.wait load
  %t = arith.index_cast %tid : i32 to index
  %at = arith.muli %t, %c16 : index
  vector.store %got, %out[%at] : memref<2048xi32>, vector<16xi32>
  func.return
}
