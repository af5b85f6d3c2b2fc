// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// At the NVVM level (the scf.for iter_args become loop-header block arguments, the scf.if a
// diamond of blocks joining in block arguments) the same errors, in the same order (two at one op
// in the order of their messages):
// NVVM: error: this wait on stage t % 2 of the ring has parity (t / 2) & 1, as does the other side's
// NVVM: error: nvvm.tcgen05.mma of warp 4 refills stage t % 2 in iteration t + 2
// NVVM: error: this op indexes the mbarriers of 'full' by t % 2, another by t % 1
// NVVM: error: nvvm.tcgen05.ld of warp 0 uses stage t % 1 of iteration t
// NVVM: error: this op indexes the mbarriers of 'empty' by t % 2, another by t % 1
// NVVM: error: nvvm.tcgen05.dealloc of warp 0 frees TMEM cells that nvvm.tcgen05.mma of warp 4 accessed
// NVVM: error: the phase this wait uses, carried in %ph, is not the parity of the ring's round: it stays 0 in every iteration (it never flips)
// NVVM: error: nvvm.tcgen05.ld of warp 0 uses stage t % 2 of iteration t while nvvm.tcgen05.mma of warp 4 may still fill it
// NVVM: error: this wait on stage t % 1 of the ring has parity (t / 1) & 1, as does the other side's
// NVVM: error: nvvm.tcgen05.mma of warp 4 refills stage t % 1 in iteration t + 1
// NVVM: error: the phase this wait uses, carried in %ph, is not the parity of the ring's round: it stays 0 in every iteration (it never flips)
// NVVM: error: nvvm.tcgen05.ld of warp 0 and nvvm.tcgen05.mma of warp 4 touch the same TMEM cells
// NVVM: error: nvvm.tcgen05.dealloc of warp 0 frees TMEM cells that nvvm.tcgen05.mma of warp 4 accessed
// NVVM: error: the phase this wait uses, carried in %ph, is not the parity of the ring's round: its values repeat 0, 0, 1, 1 every 4 iterations, flipping every 2 iterations
// NVVM: error: nvvm.tcgen05.ld of warp 0 and nvvm.tcgen05.mma of warp 4 touch the same TMEM cells
// NVVM: error: nvvm.tcgen05.dealloc of warp 0 frees TMEM cells that nvvm.tcgen05.mma of warp 4 accessed
// NVVM-NOT: error
// NVVM: warning: cannot match the phase of this nvvm.mbarrier.try_wait.parity with a ring of the common form: it is carried by its loop in %ph, and its values repeat 0, 1, 1, 0
// NVVM: warning: cannot match the stage index of this nvvm.mbarrier.try_wait.parity with a ring of the common form: it is carried by its loop in %s, and it is (t + 1) % 2
// NVVM: warning: cannot match the stage index of this nvvm.mbarrier.arrive with a ring of the common form: it is carried by its loop in %s, and it is (t + 1) % 2
// NVVM: error: nvvm.tcgen05.dealloc of warp 0 frees TMEM cells that nvvm.tcgen05.mma of warp 4 accessed
// NVVM-NOT: error

// Rings whose stage and phase live in loop registers, as CUTLASS's PipelineState keeps them
// (issue 11): `index` and `phase` carried through the loop, `++index; if (index == N) { index =
// 0; phase ^= 1; }`. The same 2-stage TMEM accumulator ring as verify_mbarrier_rings.mlir
// between an MMA warp (warp 4, state updated with arith.select) and an epilogue warpgroup
// (warps 0-3, state updated by an scf.if yielding the pair), over 6 tiles. tmem-verify maps
// each carried value to its closed form in the loop counter (index = t % 2, phase = (t / 2) & 1,
// with the producer's ^ 1), so the ring rules apply as they do to t % N. Legal; the producer
// starting with the wrong phase; the producer resetting its index at N - 1; the consumer never
// flipping its phase. Then the same with one mbarrier each way and Triton's `phase ^= 1` (a
// ring of one stage): legal; the wrong initial phase; the flip missing; a phase flipping every
// other iteration. Last, a consumer state starting a stage ahead (warnings: not of the common
// form). tests/test_mbarrier_handoff.py runs the interpreter on each.

// The legal kernel: both sides carry (index, phase) as CUTLASS's PipelineState does.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @pipeline_state() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      // CUTLASS's producer start state: index 0, phase 1 (a fresh `empty` passes at once)
      %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c1_i32) -> (i32, i32) {
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %empty_s, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full_s : !llvm.ptr<3>
        // ++state: index + 1, wrapping to 0 at N with the phase flipped (arith.select)
        %s1 = arith.addi %s, %c1_i32 : i32
        %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
        %s2 = arith.select %wrap, %c0_i32, %s1 : i32
        %flipped = arith.xori %ph, %c1_i32 : i32
        %ph2 = arith.select %wrap, %flipped, %ph : i32
        scf.yield %s2, %ph2 : i32, i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    // CUTLASS's consumer start state: index 0, phase 0
    %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c0_i32) -> (i32, i32) {
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
      // ++state as an scf.if yielding the new pair
      %s1 = arith.addi %s, %c1_i32 : i32
      %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
      %next:2 = scf.if %wrap -> (i32, i32) {
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %c0_i32, %flipped : i32, i32
      } else {
        scf.yield %s1, %ph : i32, i32
      }
      scf.yield %next#0, %next#1 : i32, i32
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

// The producer's state starts with phase 0 (CUTLASS's producer start state has phase 1): both
// sides wait with (t / 2) & 1, a deadlock.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @pipeline_state() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      // CUTLASS's producer start state: index 0, phase 1 (a fresh `empty` passes at once)
      %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c0_i32) -> (i32, i32) {
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
        // ++state: index + 1, wrapping to 0 at N with the phase flipped (arith.select)
        %s1 = arith.addi %s, %c1_i32 : i32
        %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
        %s2 = arith.select %wrap, %c0_i32, %s1 : i32
        %flipped = arith.xori %ph, %c1_i32 : i32
        %ph2 = arith.select %wrap, %flipped, %ph : i32
        scf.yield %s2, %ph2 : i32, i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    // CUTLASS's consumer start state: index 0, phase 0
    %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c0_i32) -> (i32, i32) {
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
      // ++state as an scf.if yielding the new pair
      %s1 = arith.addi %s, %c1_i32 : i32
      %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
      %next:2 = scf.if %wrap -> (i32, i32) {
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %c0_i32, %flipped : i32, i32
      } else {
        scf.yield %s1, %ph : i32, i32
      }
      scf.yield %next#0, %next#1 : i32, i32
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

// The producer resets its index at N - 1 = 1 instead of N = 2: it uses stage t % 1, the consumer
// stage t % 2.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @pipeline_state() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      // CUTLASS's producer start state: index 0, phase 1 (a fresh `empty` passes at once)
      %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c1_i32) -> (i32, i32) {
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        // expected-note@+1 {{t % 1 here}}
        tcgen05.mbarrier.wait_parity %empty_s, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        // expected-note@+2 {{the tcgen05.mma of warp 4}}
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        // expected-note@+1 {{t % 1 here}}
        tcgen05.commit %full_s : !llvm.ptr<3>
        // ++state: index + 1, wrapping to 0 at N with the phase flipped (arith.select)
        %s1 = arith.addi %s, %c1_i32 : i32
        %wrap = arith.cmpi eq, %s1, %c1_i32 : i32
        %s2 = arith.select %wrap, %c0_i32, %s1 : i32
        %flipped = arith.xori %ph, %c1_i32 : i32
        %ph2 = arith.select %wrap, %flipped, %ph : i32
        scf.yield %s2, %ph2 : i32, i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    // CUTLASS's consumer start state: index 0, phase 0
    %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c0_i32) -> (i32, i32) {
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      // expected-error@+1 {{this op indexes the mbarriers of 'full' by t % 2, another by t % 1: the two sides of a ring disagree on its}}
      tcgen05.mbarrier.wait_parity %full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      // expected-error@+1 {{tcgen05.ld of warp 0 uses stage t % 1 of iteration t while tcgen05.mma of warp 4 may still fill it:}}
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      // expected-error@+1 {{this op indexes the mbarriers of 'empty' by t % 2, another by t % 1: the two sides of a ring disagree on its}}
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      // ++state as an scf.if yielding the new pair
      %s1 = arith.addi %s, %c1_i32 : i32
      %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
      %next:2 = scf.if %wrap -> (i32, i32) {
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %c0_i32, %flipped : i32, i32
      } else {
        scf.yield %s1, %ph : i32, i32
      }
      scf.yield %next#0, %next#1 : i32, i32
    }
  }
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    // expected-error@+1 {{tcgen05.dealloc of warp 0 frees TMEM cells that tcgen05.mma of warp 4 accessed, and warp 4 did not wait}}
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

// The consumer resets its index at N but never flips its phase: from iteration 2 on its wait on
// full[t % 2] passes on the phase completed two iterations before.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @pipeline_state() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      // CUTLASS's producer start state: index 0, phase 1 (a fresh `empty` passes at once)
      %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c1_i32) -> (i32, i32) {
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %empty_s, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        // expected-note@+2 {{the tcgen05.mma of warp 4}}
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full_s : !llvm.ptr<3>
        // ++state: index + 1, wrapping to 0 at N with the phase flipped (arith.select)
        %s1 = arith.addi %s, %c1_i32 : i32
        %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
        %s2 = arith.select %wrap, %c0_i32, %s1 : i32
        %flipped = arith.xori %ph, %c1_i32 : i32
        %ph2 = arith.select %wrap, %flipped, %ph : i32
        scf.yield %s2, %ph2 : i32, i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    // CUTLASS's consumer start state: index 0, phase 0
    %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c0_i32) -> (i32, i32) {
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      // expected-error@+1 {{the phase this wait uses, carried in %ph, is not the parity of the ring's round: it stays 0 in every iteration (it never flips), while}}
      tcgen05.mbarrier.wait_parity %full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      // expected-error@+1 {{tcgen05.ld of warp 0 uses stage t % 2 of iteration t while tcgen05.mma of warp 4 may still fill it:}}
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      // ++state as an scf.if yielding the new pair
      %s1 = arith.addi %s, %c1_i32 : i32
      %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
      %next:2 = scf.if %wrap -> (i32, i32) {
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %c0_i32, %ph : i32, i32
      } else {
        scf.yield %s1, %ph : i32, i32
      }
      // expected-note@+1 {{the loop makes the next value of %ph here}}
      scf.yield %next#0, %next#1 : i32, i32
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

// One mbarrier each way and Triton's `phase ^= 1` (a ring of one stage: phase = t & 1, the
// producer's ^ 1). Legal.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @phase_flip() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c1_i32) -> (i32) {
        tcgen05.mbarrier.wait_parity %empty, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full : !llvm.ptr<3>
        // Triton's `phase ^= 1`
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %flipped : i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c0_i32) -> (i32) {
      tcgen05.mbarrier.wait_parity %full, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %r = tcgen05.ld %addr shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty : !llvm.ptr<3>
      %flipped = arith.xori %ph, %c1_i32 : i32
      scf.yield %flipped : i32
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

// The producer's phase starts at 0: both sides wait for the other's release of iteration t.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @phase_flip() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c0_i32) -> (i32) {
        // expected-error@+1 {{this wait on stage t % 1 of the ring has parity (t / 1) & 1, as does the other side's: in iteration t each}}
        tcgen05.mbarrier.wait_parity %empty, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        // expected-error@+1 {{tcgen05.mma of warp 4 refills stage t % 1 in iteration t + 1 while tcgen05.ld of warp 0 may still use it from}}
        tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full : !llvm.ptr<3>
        // Triton's `phase ^= 1`
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %flipped : i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c0_i32) -> (i32) {
      // expected-note@+1 {{the other side's wait}}
      tcgen05.mbarrier.wait_parity %full, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      // expected-note@+1 {{the tcgen05.ld of warp 0}}
      %r = tcgen05.ld %addr shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty : !llvm.ptr<3>
      %flipped = arith.xori %ph, %c1_i32 : i32
      scf.yield %flipped : i32
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

// The consumer's flip is missing.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @phase_flip() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c1_i32) -> (i32) {
        tcgen05.mbarrier.wait_parity %empty, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        // expected-note@+2 {{the tcgen05.mma}}
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full : !llvm.ptr<3>
        // Triton's `phase ^= 1`
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %flipped : i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c0_i32) -> (i32) {
      // expected-error@+1 {{the phase this wait uses, carried in %ph, is not the parity of the ring's round: it stays 0 in every iteration (it never flips), while}}
      tcgen05.mbarrier.wait_parity %full, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      // expected-error@+1 {{tcgen05.ld of warp 0 and tcgen05.mma of warp 4 touch the same TMEM cells with no wait and barrier between them}}
      %r = tcgen05.ld %addr shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty : !llvm.ptr<3>
      // expected-note@+1 {{the loop makes the next value of %ph here}}
      scf.yield %ph : i32
    }
  }
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    // expected-error@+1 {{tcgen05.dealloc of warp 0 frees TMEM cells that tcgen05.mma of warp 4 accessed, and warp 4 did not wait}}
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

// The consumer's phase flips every other iteration, as a 2-stage ring's would, on one mbarrier.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @phase_flip() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c1_i32) -> (i32) {
        tcgen05.mbarrier.wait_parity %empty, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        // expected-note@+2 {{the tcgen05.mma}}
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full : !llvm.ptr<3>
        // Triton's `phase ^= 1`
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %flipped : i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%ph = %c0_i32, %odd = %c0_i32) -> (i32, i32) {
      // expected-error@+1 {{the phase this wait uses, carried in %ph, is not the parity of the ring's round: its values repeat 0, 0, 1, 1 every 4 iterations, flipping every 2 iterations, while}}
      tcgen05.mbarrier.wait_parity %full, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      // expected-error@+1 {{tcgen05.ld of warp 0 and tcgen05.mma of warp 4 touch the same TMEM cells with no wait and barrier between them}}
      %r = tcgen05.ld %addr shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      %token = tcgen05.mbarrier.arrive %empty : !llvm.ptr<3>
      // flips every other iteration: a 2-iteration counter, as a 2-stage ring would step
      %odd1 = arith.xori %odd, %c1_i32 : i32
      %wrap = arith.cmpi eq, %odd1, %c0_i32 : i32
      %flipped = arith.xori %ph, %c1_i32 : i32
      %ph2 = arith.select %wrap, %flipped, %ph : i32
      // expected-note@+1 {{the loop makes the next value of %ph here}}
      scf.yield %ph2, %odd1 : i32, i32
    }
  }
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.fence after_thread_sync
    // expected-error@+1 {{tcgen05.dealloc of warp 0 frees TMEM cells that tcgen05.mma of warp 4 accessed, and warp 4 did not wait}}
    tcgen05.dealloc %d, 64
  }
  func.return
}

// -----

// The consumer's state starts at index 1, a stage ahead of its loop counter (as a software-
// pipelined prologue would leave it, but with no prologue): not a ring of the common form, a
// warning naming each register (tmem-run finds the deadlock); the dealloc, which no proven order
// puts after the mma it surely overlaps, is an error.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
llvm.mlir.global internal @smem_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x f16>
llvm.mlir.global internal @smem_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<512 x f16>

func.func @pipeline_state() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
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
      // CUTLASS's producer start state: index 0, phase 1 (a fresh `empty` passes at once)
      %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c0_i32, %ph = %c1_i32) -> (i32, i32) {
        %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
        tcgen05.mbarrier.wait_parity %empty_s, %ph : !llvm.ptr<3>
        tcgen05.fence after_thread_sync
        %col = arith.muli %s, %c32_i32 : i32
        %d_s = arith.addi %d, %col : i32
        // expected-note@+2 {{the tcgen05.mma}}
        // expected-note@+1 {{the tcgen05.mma of warp 4}}
        tcgen05.mma f16 %d_s, %desc_a, %desc_b, %idesc, %false : i64
        tcgen05.commit %full_s : !llvm.ptr<3>
        // ++state: index + 1, wrapping to 0 at N with the phase flipped (arith.select)
        %s1 = arith.addi %s, %c1_i32 : i32
        %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
        %s2 = arith.select %wrap, %c0_i32, %s1 : i32
        %flipped = arith.xori %ph, %c1_i32 : i32
        %ph2 = arith.select %wrap, %flipped, %ph : i32
        scf.yield %s2, %ph2 : i32, i32
      }
    }
  } else {
    %quarter = arith.muli %warp, %c32_i32 : i32
    %lane = arith.shli %quarter, %c16_i32 : i32
    %addr = arith.addi %d, %lane : i32
    // CUTLASS's consumer start state: index 0, phase 0
    %last:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %c1_i32, %ph = %c0_i32) -> (i32, i32) {
      %empty_s = llvm.getelementptr %empty[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      %full_s = llvm.getelementptr %full[%s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
      // expected-warning@+2 {{cannot match the stage index of this tcgen05.mbarrier.wait_parity with a ring of the common form: it is carried by its loop in %s, and it is (t + 1) % 2, 1 stage ahead of the loop's counter t}}
      // expected-warning@+1 {{cannot match the phase of this tcgen05.mbarrier.wait_parity with a ring of the common form: it is carried by its loop in %ph, and its values repeat 0, 1, 1, 0 every 4 iterations}}
      tcgen05.mbarrier.wait_parity %full_s, %ph : !llvm.ptr<3>
      tcgen05.fence after_thread_sync
      %col = arith.muli %s, %c32_i32 : i32
      %addr_s = arith.addi %addr, %col : i32
      // expected-warning@+1 {{cannot prove that tcgen05.ld of warp 0 and tcgen05.mma of warp 4 touch different TMEM cells; nothing orders}}
      %r = tcgen05.ld %addr_s shape_32x32b x32 : vector<32xi32>
      tcgen05.wait load
      tcgen05.fence before_thread_sync
      // expected-warning@+1 {{cannot match the stage index of this tcgen05.mbarrier.arrive with a ring of the common form: it is carried by its loop in %s, and it is (t + 1) % 2}}
      %token = tcgen05.mbarrier.arrive %empty_s : !llvm.ptr<3>
      // ++state as an scf.if yielding the new pair
      %s1 = arith.addi %s, %c1_i32 : i32
      %wrap = arith.cmpi eq, %s1, %c2_i32 : i32
      %next:2 = scf.if %wrap -> (i32, i32) {
        %flipped = arith.xori %ph, %c1_i32 : i32
        scf.yield %c0_i32, %flipped : i32, i32
      } else {
        scf.yield %s1, %ph : i32, i32
      }
      // expected-note@+3 {{the loop makes the next value of %s here}}
      // expected-note@+2 {{the loop makes the next value of %ph here}}
      // expected-note@+1 {{the loop makes the next value of %s here}}
      scf.yield %next#0, %next#1 : i32, i32
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
