// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// tmem-verify, warp-collective ops (.sync.aligned: alloc, dealloc, relinquish, ld, st, wait)
// must be reached by every thread of a warp together: a condition on the warp index is fine,
// one on the lane id (or on tid other than through tid / 32) splits a warp.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @alloc_under_lane_condition() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c31 = arith.constant 31 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %lane = arith.andi %tid, %c31 : i32
  %first = arith.cmpi eq, %lane, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+2 {{this condition differs between threads of warp 0}}
  // expected-note@+1 {{this condition differs between threads of warp 0}}
  scf.if %first {
    // expected-error@+1 {{tcgen05.alloc is warp-collective (.sync.aligned) but runs under a condition that splits warp 0: it depends on the lane, not only on the warp index}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    %a = llvm.load %s : !llvm.ptr<3> -> i32
    // expected-error@+1 {{tcgen05.dealloc is warp-collective (.sync.aligned) but runs under a condition that splits warp 0}}
    tcgen05.dealloc %a, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// tid < 16 keeps half of warp 0: split. (The leak and one-warp checks agree it is wrong.)
func.func @dealloc_under_half_warp() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %c16 = arith.constant 16 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %half = arith.cmpi ult, %tid, %c16 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    // The split warp 0 also takes the path around the dealloc.
    // expected-error@+1 {{TMEM allocated here may still be allocated when the kernel exits}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+1 {{this condition differs between threads of warp 0}}
  scf.if %half {
    // expected-error@+1 {{tcgen05.dealloc is warp-collective (.sync.aligned) but runs under a condition that splits warp 0}}
    tcgen05.dealloc %a, 32
  }
  // expected-note@+1 {{a path leaves the kernel here with it allocated}}
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// tid / 32 == 1, tid >> 5 < 1 and (tid & ~31) == 0 are warp-uniform: no diagnostics.
func.func @warp_conditions() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 96, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %cm32 = arith.constant -32 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.divui %tid, %c32 : i32
  %is1 = arith.cmpi eq, %w, %c1 : i32
  %hi = arith.andi %tid, %cm32 : i32
  %is0 = arith.cmpi eq, %hi, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is1 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %is0 {
    tcgen05.dealloc %a, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A condition loaded per thread from global memory: it may differ inside a warp; we cannot
// tell, so we say so.
func.func @unknown_condition(%flags: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = arith.index_cast %tid : i32 to index
  %f = memref.load %flags[%i] : memref<128xi32>
  %go = arith.cmpi ne, %f, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+2 {{this condition may differ between threads of a warp}}
  // expected-note@+1 {{this condition may differ between threads of a warp}}
  scf.if %go {
    // expected-warning@+1 {{cannot prove that every thread of a warp reaches this tcgen05.dealloc (warp-collective, .sync.aligned) together}}
    tcgen05.dealloc %a, 32
  } else {
    // expected-warning@+1 {{cannot prove that every thread of a warp reaches this tcgen05.dealloc}}
    tcgen05.dealloc %a, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A loop whose trip count depends on the lane: the ld inside runs with part of the warp.
func.func @lane_dependent_trip_count() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %n = arith.index_cast %tid : i32 to index
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+1 {{this condition differs between threads of a warp}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{tcgen05.ld is warp-collective (.sync.aligned) but runs under a condition that splits a warp}}
    %v = tcgen05.ld %a shape_32x32b x1 : vector<1xi32>
  }
  tcgen05.wait load
  tcgen05.dealloc %a, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The same for unstructured control flow: llvm.cond_br on the lane id.
llvm.func @cond_br_on_lane() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %n = llvm.mlir.constant(32 : i32) : i32
  %lane = nvvm.read.ptx.sreg.laneid : i32
  %first = llvm.icmp "eq" %lane, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // The threads that skip the dealloc leave the kernel with TMEM allocated.
  // expected-error@+1 {{TMEM allocated here may still be allocated when the kernel exits}}
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  // expected-note@+1 {{this condition differs between threads of warp 0}}
  llvm.cond_br %first, ^free, ^done
^free:
  // expected-error@+1 {{nvvm.tcgen05.dealloc is warp-collective (.sync.aligned) but runs under a condition that splits warp 0}}
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  // expected-note@+1 {{a path leaves the kernel here with it allocated}}
  llvm.return
}
