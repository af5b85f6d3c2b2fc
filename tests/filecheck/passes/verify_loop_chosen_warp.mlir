// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// The allocating warp chosen by a loop index (`scf.for %i = 0 to 1`, `warp == i`): a loop of one
// trip runs with its lower bound, so one warp allocates and the same warp frees (issue 9: this
// was a false leak). tmem-run runs the legal kernel clean, and reports the twin's leak.
// NVVM: error: TMEM allocated here may still be allocated when the kernel exits
// NVVM-NOT: error

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The legal kernel: warp 0 allocates and frees, chosen by a loop of one trip (warp == i).
func.func @loop_chosen_warp(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.for %i = %c0 to %c1 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %mine = arith.cmpi eq, %warp, %i32 : i32
    scf.if %mine {
      tcgen05.alloc %slot, 32 : !llvm.ptr<3>
      tcgen05.relinquish_alloc_permit
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %value = vector.broadcast %tid : i32 to vector<1xi32>
  tcgen05.st %value, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  %back = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  %elem = vector.extract %back[0] : i32 from vector<1xi32>
  %idx = arith.index_cast %tid : i32 to index
  memref.store %elem, %out[%idx] : memref<128xi32>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.for %i = %c0 to %c1 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %mine = arith.cmpi eq, %warp, %i32 : i32
    scf.if %mine {
      tcgen05.dealloc %base, 32
    }
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Its buggy twin: the loop that frees is gone.
func.func @loop_chosen_warp_leaks(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.for %i = %c0 to %c1 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %mine = arith.cmpi eq, %warp, %i32 : i32
    scf.if %mine {
      // expected-error@+1 {{TMEM allocated here may still be allocated when the kernel exits: every path must tcgen05.dealloc it}}
      tcgen05.alloc %slot, 32 : !llvm.ptr<3>
      tcgen05.relinquish_alloc_permit
    }
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %value = vector.broadcast %tid : i32 to vector<1xi32>
  tcgen05.st %value, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  %back = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  %elem = vector.extract %back[0] : i32 from vector<1xi32>
  %idx = arith.index_cast %tid : i32 to index
  memref.store %elem, %out[%idx] : memref<128xi32>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  // expected-note@+1 {{a path leaves the kernel here with it allocated}}
  func.return
}
