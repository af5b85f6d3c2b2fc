// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// At the NVVM level (loops of blocks, try_wait loops) the same errors, in the same order:
// NVVM: error: this arrive releases TMEM cells that nvvm.tcgen05.ld of warp 0 may still be accessing
// NVVM: error: this wait on stage t % 2 of the ring has parity (t / 2) & 1, as does the other side's
// NVVM: error: this wait on stage t % 2 of the ring has the flipped parity ((t / 2) & 1) ^ 1
// NVVM: error: this op indexes the mbarriers of 'full' by t % 4, another by t % 2
// NVVM: error: this op indexes the mbarriers of 'empty' by t % 4, another by t % 2
// NVVM: error: nvvm.tcgen05.dealloc of warp 0 frees TMEM cells that nvvm.tcgen05.mma of warp 4 accessed
// NVVM-NOT: error

// Rings of the common form (issue 11): a 2-stage TMEM accumulator ring between an MMA warp
// (warp 4: waits on empty[t % 2] with parity ((t / 2) & 1) ^ 1, mma into stage t % 2, commit to
// full[t % 2]) and an epilogue warpgroup (warps 0-3: wait on full[t % 2] with parity (t / 2) & 1,
// tcgen05.ld, wait::ld, arrive on empty[t % 2]), over 6 tiles. Legal; the reader's release
// before its wait::ld (the flashinfer bug); the producer waiting with the plain parity
// (deadlock); the consumer waiting with the flipped parity (uses a stage before its fill); the
// two sides disagreeing on the number of stages. tests/test_mbarrier_handoff.py runs the
// interpreter on each.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

// Warp 4 issues two MMAs into one 32-column accumulator; warps 0-3 read each tile. `full`
// (count 1) carries each MMA's completion to the readers (commit), `empty` (count 128) the
// readers' release of the accumulator back to warp 4.
func.func @two_tiles() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2_i32 = arith.constant 2 : i32
  %false = arith.constant false
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c4_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %full = llvm.mlir.addressof @full : !llvm.ptr<3>
  %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
  // A (128 x 16) and B (32 x 16) f16, K-major with no swizzle, zero-filled by warps 0-3
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %zeros = arith.constant dense<0.0> : vector<16xf16>
  %zeros4 = arith.constant dense<0.0> : vector<4xf16>
  %is_reader = arith.cmpi ult, %warp, %c4_i32 : i32
  scf.if %is_reader {
    %row = arith.muli %tid, %c16_i32 : i32
    %pa = llvm.getelementptr %sa[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros, %pa {alignment = 32 : i64} : vector<16xf16>, !llvm.ptr<3>
    %c4 = arith.constant 4 : i32
    %rowb = arith.muli %tid, %c4 : i32
    %pb = llvm.getelementptr %sb[%rowb] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros4, %pb {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async
  %a_addr = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_addr = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %desc_a = tcgen05.smem_desc %a_addr lbo 128 sbo 256 none
  %desc_b = tcgen05.smem_desc %b_addr lbo 128 sbo 256 none
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %full1 = llvm.getelementptr %full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %empty1 = llvm.getelementptr %empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32
  %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tiles = arith.constant 6 : index
  scf.if %is_mma {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_empty = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %empty_s, %ph_empty : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full_s : !llvm.ptr<3>
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      tcgen05.mbarrier.wait_parity %full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

// Warp 4 issues two MMAs into one 32-column accumulator; warps 0-3 read each tile. `full`
// (count 1) carries each MMA's completion to the readers (commit), `empty` (count 128) the
// readers' release of the accumulator back to warp 4.
func.func @two_tiles() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2_i32 = arith.constant 2 : i32
  %false = arith.constant false
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c4_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %full = llvm.mlir.addressof @full : !llvm.ptr<3>
  %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
  // A (128 x 16) and B (32 x 16) f16, K-major with no swizzle, zero-filled by warps 0-3
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %zeros = arith.constant dense<0.0> : vector<16xf16>
  %zeros4 = arith.constant dense<0.0> : vector<4xf16>
  %is_reader = arith.cmpi ult, %warp, %c4_i32 : i32
  scf.if %is_reader {
    %row = arith.muli %tid, %c16_i32 : i32
    %pa = llvm.getelementptr %sa[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros, %pa {alignment = 32 : i64} : vector<16xf16>, !llvm.ptr<3>
    %c4 = arith.constant 4 : i32
    %rowb = arith.muli %tid, %c4 : i32
    %pb = llvm.getelementptr %sb[%rowb] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros4, %pb {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async
  %a_addr = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_addr = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %desc_a = tcgen05.smem_desc %a_addr lbo 128 sbo 256 none
  %desc_b = tcgen05.smem_desc %b_addr lbo 128 sbo 256 none
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %full1 = llvm.getelementptr %full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %empty1 = llvm.getelementptr %empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32
  %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tiles = arith.constant 6 : index
  scf.if %is_mma {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_empty = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %empty_s, %ph_empty : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full_s : !llvm.ptr<3>
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      tcgen05.mbarrier.wait_parity %full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      // expected-note@+1 {{the tcgen05.ld of warp 0}}
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      
      tcgen05.fence before_thread_sync
      // expected-error@+1 {{this arrive releases TMEM cells that tcgen05.ld of warp 0 may still be accessing: warp 0 waits for it}}
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      tcgen05.wait load
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

// Warp 4 issues two MMAs into one 32-column accumulator; warps 0-3 read each tile. `full`
// (count 1) carries each MMA's completion to the readers (commit), `empty` (count 128) the
// readers' release of the accumulator back to warp 4.
func.func @two_tiles() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2_i32 = arith.constant 2 : i32
  %false = arith.constant false
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c4_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %full = llvm.mlir.addressof @full : !llvm.ptr<3>
  %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
  // A (128 x 16) and B (32 x 16) f16, K-major with no swizzle, zero-filled by warps 0-3
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %zeros = arith.constant dense<0.0> : vector<16xf16>
  %zeros4 = arith.constant dense<0.0> : vector<4xf16>
  %is_reader = arith.cmpi ult, %warp, %c4_i32 : i32
  scf.if %is_reader {
    %row = arith.muli %tid, %c16_i32 : i32
    %pa = llvm.getelementptr %sa[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros, %pa {alignment = 32 : i64} : vector<16xf16>, !llvm.ptr<3>
    %c4 = arith.constant 4 : i32
    %rowb = arith.muli %tid, %c4 : i32
    %pb = llvm.getelementptr %sb[%rowb] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros4, %pb {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async
  %a_addr = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_addr = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %desc_a = tcgen05.smem_desc %a_addr lbo 128 sbo 256 none
  %desc_b = tcgen05.smem_desc %b_addr lbo 128 sbo 256 none
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %full1 = llvm.getelementptr %full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %empty1 = llvm.getelementptr %empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32
  %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tiles = arith.constant 6 : index
  scf.if %is_mma {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_empty = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        // expected-error@+1 {{this wait on stage t % 2 of the ring has parity (t / 2) & 1, as does the other side's: in iteration t each}}
        tcgen05.mbarrier.wait_parity %empty_s, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        // expected-error@+1 {{tcgen05.mma of warp 4 refills stage t % 2 in iteration t + 2 while tcgen05.ld of warp 0 may still use it from}}
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full_s : !llvm.ptr<3>
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      // expected-note@+1 {{the other side's wait}}
      tcgen05.mbarrier.wait_parity %full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      // expected-note@+1 {{the tcgen05.ld of warp 0}}
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

// Warp 4 issues two MMAs into one 32-column accumulator; warps 0-3 read each tile. `full`
// (count 1) carries each MMA's completion to the readers (commit), `empty` (count 128) the
// readers' release of the accumulator back to warp 4.
func.func @two_tiles() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2_i32 = arith.constant 2 : i32
  %false = arith.constant false
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c4_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %full = llvm.mlir.addressof @full : !llvm.ptr<3>
  %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
  // A (128 x 16) and B (32 x 16) f16, K-major with no swizzle, zero-filled by warps 0-3
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %zeros = arith.constant dense<0.0> : vector<16xf16>
  %zeros4 = arith.constant dense<0.0> : vector<4xf16>
  %is_reader = arith.cmpi ult, %warp, %c4_i32 : i32
  scf.if %is_reader {
    %row = arith.muli %tid, %c16_i32 : i32
    %pa = llvm.getelementptr %sa[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros, %pa {alignment = 32 : i64} : vector<16xf16>, !llvm.ptr<3>
    %c4 = arith.constant 4 : i32
    %rowb = arith.muli %tid, %c4 : i32
    %pb = llvm.getelementptr %sb[%rowb] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros4, %pb {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async
  %a_addr = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_addr = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %desc_a = tcgen05.smem_desc %a_addr lbo 128 sbo 256 none
  %desc_b = tcgen05.smem_desc %b_addr lbo 128 sbo 256 none
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %full1 = llvm.getelementptr %full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %empty1 = llvm.getelementptr %empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32
  %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tiles = arith.constant 6 : index
  scf.if %is_mma {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_empty = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        // expected-note@+1 {{the filling side's wait}}
        tcgen05.mbarrier.wait_parity %empty_s, %ph_empty : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        // expected-note@+2 {{the tcgen05.mma of warp 4}}
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full_s : !llvm.ptr<3>
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %s = arith.remui %t32, %c2_i32 : i32
      %round = arith.divui %t32, %c2_i32 : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %ph_wrong = arith.xori %ph, %c1_i32 : i32
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      // expected-error@+1 {{this wait on stage t % 2 of the ring has the flipped parity ((t / 2) & 1) ^ 1, as does the filling side's: in}}
      tcgen05.mbarrier.wait_parity %full_s, %ph_wrong : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      // expected-error@+1 {{tcgen05.ld of warp 0 uses stage t % 2 of iteration t while tcgen05.mma of warp 4 may still fill it:}}
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      
    }
  }
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    // expected-error@+1 {{tcgen05.dealloc of warp 0 frees TMEM cells that tcgen05.mma of warp 4 accessed, and warp 4 did not wait for it}}
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

// Warp 4 issues two MMAs into one 32-column accumulator; warps 0-3 read each tile. `full`
// (count 1) carries each MMA's completion to the readers (commit), `empty` (count 128) the
// readers' release of the accumulator back to warp 4.
func.func @two_tiles() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c2_i32 = arith.constant 2 : i32
  %false = arith.constant false
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_mma = arith.cmpi eq, %warp, %c4_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %full = llvm.mlir.addressof @full : !llvm.ptr<3>
  %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
  // A (128 x 16) and B (32 x 16) f16, K-major with no swizzle, zero-filled by warps 0-3
  %sa = llvm.mlir.addressof @smem_a : !llvm.ptr<3>
  %sb = llvm.mlir.addressof @smem_b : !llvm.ptr<3>
  %zeros = arith.constant dense<0.0> : vector<16xf16>
  %zeros4 = arith.constant dense<0.0> : vector<4xf16>
  %is_reader = arith.cmpi ult, %warp, %c4_i32 : i32
  scf.if %is_reader {
    %row = arith.muli %tid, %c16_i32 : i32
    %pa = llvm.getelementptr %sa[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros, %pa {alignment = 32 : i64} : vector<16xf16>, !llvm.ptr<3>
    %c4 = arith.constant 4 : i32
    %rowb = arith.muli %tid, %c4 : i32
    %pb = llvm.getelementptr %sb[%rowb] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
    llvm.store %zeros4, %pb {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  }
  tcgen05.fence_proxy_async
  %a_addr = llvm.ptrtoint %sa : !llvm.ptr<3> to i32
  %b_addr = llvm.ptrtoint %sb : !llvm.ptr<3> to i32
  %desc_a = tcgen05.smem_desc %a_addr lbo 128 sbo 256 none
  %desc_b = tcgen05.smem_desc %b_addr lbo 128 sbo 256 none
  scf.if %is_warp0 {
    // expected-note@+1 {{the allocation of 64 columns}}
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  scf.if %is_thread0 {
    %full1 = llvm.getelementptr %full[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    %empty1 = llvm.getelementptr %empty[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    tcgen05.mbarrier.init %full, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %full1, %c1_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty, %c128_i32 : !llvm.ptr<3>
    tcgen05.mbarrier.init %empty1, %c128_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %d = llvm.load %slot : !llvm.ptr<3> -> i32
  %idesc = tcgen05.instr_desc f16 m 128 n 32 a f16 b f16 d f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tiles = arith.constant 6 : index
  scf.if %is_mma {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      scf.for %t = %c0 to %tiles step %c1 {
        %t32 = arith.index_cast %t : index to i32
        %s = arith.remui %t32, %c2_i32 : i32
        %round = arith.divui %t32, %c2_i32 : i32
        %ph = arith.andi %round, %c1_i32 : i32
        %ph_empty = arith.xori %ph, %c1_i32 : i32
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        // expected-note@+1 {{t % 2 here}}
        tcgen05.mbarrier.wait_parity %empty_s, %ph_empty : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        // expected-note@+2 {{the tcgen05.mma}}
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        // expected-note@+1 {{t % 2 here}}
        tcgen05.commit %full_s : !llvm.ptr<3>
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    scf.for %t = %c0 to %tiles step %c1 {
      %t32 = arith.index_cast %t : index to i32
      %c4_stage = arith.constant 4 : i32
      %s = arith.remui %t32, %c4_stage : i32
      %round = arith.divui %t32, %c4_stage : i32
      %ph = arith.andi %round, %c1_i32 : i32
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      // expected-error@+1 {{this op indexes the mbarriers of 'full' by t % 4, another by t % 2: the two sides of a ring disagree on its}}
      tcgen05.mbarrier.wait_parity %full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      // expected-warning@+2 {{cannot prove that tcgen05.ld of warp 0 stays inside its allocation of 64 columns: its column offset ranges}}
      // expected-warning@+1 {{cannot prove that tcgen05.ld of warp 0 and tcgen05.mma of warp 4 touch different TMEM cells; nothing orders}}
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      // expected-error@+1 {{this op indexes the mbarriers of 'empty' by t % 4, another by t % 2: the two sides of a ring disagree on its}}
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      
    }
  }
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    // expected-error@+1 {{tcgen05.dealloc of warp 0 frees TMEM cells that tcgen05.mma of warp 4 accessed, and warp 4 did not wait for it}}
    tcgen05.dealloc %d, 64
  }
  func.return
}
