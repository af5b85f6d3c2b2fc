// fuzz finding (issue 14): internal-error [tmem-run] _ error: interpreter internal error while executing _ in warp _: KeyError: <OpResult[i_] name_hint: c_, index: _, operation: arith.constant, uses: _>

// tmem-verify, lane quarters: warp w may access only TMEM lanes 32*(w%4)..32*(w%4)+31, so its
// address carries lane (32*(w%4)) << 16. We reason symbolically over %tid and the block size
// (reqntid): provably right is silent, provably wrong is an error, unknown is a warning.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Triton's form: base + ((warp & 3) << 21), eight warps. Also a 16-lane shape at +16 lanes.
func.func @triton_lane_base() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  nvvm.barrier
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %c16l = arith.constant 1048576 : i32
  %c64 = arith.constant 64 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 128 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %lanes = arith.shli %q, %c21 : i32
  %mine = arith.addi %base, %lanes : i32
  // Warpgroup 1 uses columns 64.. so the two warpgroups do not share cells.
  %wg = arith.shrui %warp, %c3 : i32
  %wgcol = arith.muli %wg, %c64 : i32
  %t = arith.addi %mine, %wgcol : i32
  %v = tcgen05.ld %t shape_32x32b x32 : vector<32xi32>
  %upper = arith.addi %t, %c16l : i32
  %h = tcgen05.ld %upper shape_16x64b x8 : vector<8xi32>
  tcgen05.wait load
  tcgen05.fence before_thread_sync
  %c0 = arith.constant 0 : i32
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %base, 128
  }
  func.return
}

