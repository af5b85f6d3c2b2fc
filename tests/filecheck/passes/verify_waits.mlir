// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// tmem-verify, the waits and fences of TMEM_FACTS.md "Completion and ordering" (rules 1-4).
// Single-warp kernels keep the cross-warp rules out of the way where a case is about one warp.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 1: st to cells an outstanding ld still reads.
func.func @rule1_anti_dependency() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+1 {{the outstanding tcgen05.ld}}
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  // Reading %v before wait::ld is legal: the register dependency is honored.
  %w = arith.addi %v, %v : vector<4xi32>
  // expected-error@+1 {{tcgen05.st overwrites TMEM cells that an outstanding tcgen05.ld of the same warp still reads: tcgen05.wait::ld must come between them (rule 1 (anti-dependency))}}
  tcgen05.st %w, %t shape_32x32b x4 : vector<4xi32>
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 2: ld of cells a pending st writes; st over a pending st (PTX 8.6).
func.func @rule2_store_completion() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c2 = arith.constant 2 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+1 {{the outstanding tcgen05.st}}
  tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  %t2 = arith.addi %t, %c2 : i32
  // Columns 2..5 overlap columns 0..3.
  // expected-error@+2 {{tcgen05.st overwrites TMEM cells that an outstanding tcgen05.st of the same warp still writes: tcgen05.wait::st must come between them (rule 2 (store completion))}}
  // expected-note@+1 {{the outstanding tcgen05.st}}
  tcgen05.st %z, %t2 shape_32x32b x4 : vector<4xi32>
  // expected-error@+1 {{tcgen05.ld reads TMEM cells that an outstanding tcgen05.st of the same warp still writes: tcgen05.wait::st must come between them (rule 2 (store completion))}}
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The same kernel targeting PTX 9.4 would pipeline these pairs; with the default 8.6 disjoint
// cells never need a wait: columns 0..3 and 4..7.
func.func @disjoint_cells() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %t4 = arith.addi %t, %c4 : i32
  %t8 = arith.addi %t, %c8 : i32
  tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  %v = tcgen05.ld %t4 shape_32x32b x4 : vector<4xi32>
  tcgen05.st %v, %t8 shape_32x32b x4 : vector<4xi32>
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 4 in one warp: the dealloc frees cells an outstanding ld reads.
func.func @rule4_same_warp() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+1 {{the outstanding tcgen05.ld}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  // expected-error@+1 {{tcgen05.dealloc frees TMEM cells that an outstanding tcgen05.ld of the same warp still reads: tcgen05.wait::ld must come before it (rule 4 (dealloc))}}
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

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
  // expected-note@+2 {{the outstanding tcgen05.ld}}
  // expected-note@+1 {{the tcgen05.ld of warp 1}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    // expected-error@+2 {{tcgen05.dealloc frees TMEM cells that an outstanding tcgen05.ld of the same warp still reads: tcgen05.wait::ld must come before it (rule 4 (dealloc))}}
    // expected-error@+1 {{tcgen05.dealloc of warp 0 frees TMEM cells that tcgen05.ld of warp 1 accessed, and warp 1 did not wait for it (tcgen05.wait::ld) before the barrier that orders them (rule 4 (dealloc))}}
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 3: two warpgroups share lane quarters (warps w and w+4). Warpgroup 0 stores, the
// barrier hands the cells to warpgroup 1 without wait::st.
func.func @rule3_handoff() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
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
  %t = arith.addi %base, %l : i32
  scf.if %wg0 {
    // expected-note@+1 {{the tcgen05.st of warp 0}}
    tcgen05.st %z, %t shape_32x32b x1 : vector<1xi32>
  }
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %wg0 {
    // Too late for warpgroup 1: the barrier has already handed the cells over.
    tcgen05.wait store
  } else {
    // expected-error@+1 {{tcgen05.ld of warp 4 touches TMEM cells that tcgen05.st of warp 0 accessed, and warp 0 did not wait for it (tcgen05.wait::st) before the barrier that orders them (rule 3 (handoff))}}
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

// -----

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
  %t = arith.addi %base, %l : i32
  scf.if %wg0 {
    // expected-note@+1 {{the tcgen05.st}}
    tcgen05.st %z, %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
  } else {
    // expected-error@+1 {{tcgen05.ld of warp 4 and tcgen05.st of warp 0 touch the same TMEM cells with no wait and barrier between them (rule 3 (handoff))}}
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

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Triton/CuTe-style output: waits in place, no fences, registers read before wait::ld.
// No errors; the missing fences are warnings (a deviation from the canonical pattern).
func.func @no_fences() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    // expected-note@+1 {{tcgen05.alloc is ordered by the barrier}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  // expected-warning@+2 {{this barrier orders TMEM work between warps but has no tcgen05.fence::before_thread_sync before it: the canonical pattern of rule 3 (handoff) fences both sides (Triton and CuTe output omit the fences)}}
  // expected-warning@+1 {{this barrier orders TMEM work between warps but has no tcgen05.fence::after_thread_sync after it}}
  nvvm.barrier
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  // expected-note@+3 {{tcgen05.ld in another warp runs after it}}
  // expected-note@+2 {{tcgen05.ld in another warp runs after it}}
  // expected-note@+1 {{tcgen05.ld is ordered by the barrier}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  %e = vector.extract %v[0] : i32 from vector<1xi32>
  %i = arith.index_cast %tid : i32 to index
  tcgen05.wait load
  // expected-warning@+2 {{no tcgen05.fence::before_thread_sync before it}}
  // expected-warning@+1 {{no tcgen05.fence::after_thread_sync after it}}
  nvvm.barrier
  scf.if %w0 {
    // expected-note@+2 {{tcgen05.dealloc in another warp runs after it}}
    // expected-note@+1 {{tcgen05.dealloc in another warp runs after it}}
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Loops: each iteration rewrites the same cells, so the st of the next iteration meets the
// pending st of this one (rule 2) and the ld of this one (rule 1).
func.func @loop_carried(%n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<2xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{tcgen05.st overwrites TMEM cells that an outstanding tcgen05.ld of the same warp still reads: tcgen05.wait::ld must come between them (rule 1 (anti-dependency))}}
    tcgen05.st %z, %t shape_32x32b x2 : vector<2xi32>
    tcgen05.wait store
    // expected-note@+1 {{the outstanding tcgen05.ld}}
    %v = tcgen05.ld %t shape_32x32b x2 : vector<2xi32>
  }
  tcgen05.wait load
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+2 {{tcgen05.st overwrites TMEM cells that an outstanding tcgen05.st of the same warp still writes: tcgen05.wait::st must come between them (rule 2 (store completion))}}
    // expected-note@+1 {{the outstanding tcgen05.st}}
    tcgen05.st %z, %t shape_32x32b x2 : vector<2xi32>
  }
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Loop iterations on disjoint 32-column chunks: no wait between iterations.
func.func @loop_disjoint_chunks() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<32xi32>
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %col = arith.muli %ii, %c32 : i32
    %a = arith.addi %t, %col : i32
    tcgen05.st %z, %a shape_32x32b x32 : vector<32xi32>
  }
  tcgen05.wait store
  tcgen05.dealloc %t, 128
  func.return
}
