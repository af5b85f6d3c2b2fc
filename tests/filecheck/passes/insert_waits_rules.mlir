// RUN: tmem-opt %s --split-input-file -p tmem-insert-waits | filecheck %s
// RUN: tmem-opt %s --split-input-file -p tmem-insert-waits,tmem-verify --verify-diagnostics

// tmem-insert-waits: one case per rule of TMEM_FACTS.md; every inserted op names its rule.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 1 (anti-dependency): an st to cells an outstanding ld reads needs wait::ld first.
// CHECK-LABEL: func.func @rule1
// CHECK:       %v = tcgen05.ld %t
// CHECK-NEXT:  %w = arith.addi %v, %v
// CHECK-NEXT:  tcgen05.wait load {tmem.rule = "rule 1 (anti-dependency)"}
// CHECK-NEXT:  tcgen05.st %w, %t
func.func @rule1() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  %w = arith.addi %v, %v : vector<4xi32>
  tcgen05.st %w, %t shape_32x32b x4 : vector<4xi32>
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 2 (store completion): an ld of cells a pending st writes needs wait::st first.
// CHECK-LABEL: func.func @rule2
// CHECK:       tcgen05.st %z, %t
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:  %v = tcgen05.ld %t
func.func @rule2() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  tcgen05.wait load
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 3 (handoff): warpgroup 0's st is handed to warpgroup 1 (same lane quarters) by the
// barrier: wait::st before it, fences around it.
// CHECK-LABEL: func.func @rule3
// CHECK:       tcgen05.st %z, %t
// CHECK-NEXT:  }
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  tcgen05.fence before_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  nvvm.barrier
// CHECK-NEXT:  tcgen05.fence after_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  scf.if %wg1 {
// CHECK-NEXT:    %v = tcgen05.ld %t
// CHECK:       func.return
func.func @rule3() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
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
  %wg1 = arith.cmpi uge, %warp, %c4 : i32
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
    tcgen05.st %z, %t shape_32x32b x1 : vector<1xi32>
  }
  nvvm.barrier
  scf.if %wg1 {
    %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
  } else {
    // Completes the st before the dealloc (rule 4), but too late for the handoff.
    tcgen05.wait store
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

// Rule 4 (dealloc): every warp's ld must be complete before warp 0 frees the columns; one
// wait::ld before the barrier serves all warps (warp 0 included), with the fences.
// CHECK-LABEL: func.func @rule4
// CHECK:       %v = tcgen05.ld %t
// CHECK-NEXT:  tcgen05.wait load {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT:  tcgen05.fence before_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  nvvm.barrier
// CHECK-NEXT:  tcgen05.fence after_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  scf.if %w0 {
// CHECK-NEXT:    tcgen05.dealloc %base, 32
// CHECK-NOT:   tcgen05.wait
func.func @rule4() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
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
  nvvm.barrier
  scf.if %w0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 4 in one warp with no barrier: the wait goes right before the dealloc.
// CHECK-LABEL: func.func @rule4_single_warp
// CHECK:       tcgen05.st %z, %t
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT:  tcgen05.dealloc %t, 32
func.func @rule4_single_warp() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Rule 3's canonical fences around a barrier that orders TMEM work between warps (here the
// allocation by warp 0 and the other warps' accesses).
// CHECK-LABEL: func.func @fences
// CHECK:       tcgen05.relinquish_alloc_permit
// CHECK-NEXT:  }
// CHECK-NEXT:  tcgen05.fence before_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  nvvm.barrier
// CHECK-NEXT:  tcgen05.fence after_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  nvvm.barrier
// CHECK-NEXT:  %base = llvm.load
func.func @fences() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
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
    tcgen05.relinquish_alloc_permit
  }
  // Two barriers in a row: the fences go around the first, which already orders the
  // alloc before everything after it (fence::after orders the later ld after both).
  nvvm.barrier
  nvvm.barrier
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
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

// A single-warp kernel has no other warp to hand TMEM to: no fences around its barriers.
// CHECK-LABEL: func.func @one_warp
// CHECK-NOT:   tcgen05.fence
// CHECK:       func.return
func.func @one_warp() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  nvvm.barrier
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  nvvm.barrier
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// One wait serves several needs: warpgroup 0's ld must complete before the barrier hands the
// cells to warpgroup 1 (rule 3), and that wait also covers warpgroup 0's own later rewrite
// (rule 1), which therefore needs none; warpgroup 1's st is handed back the same way.
// CHECK-LABEL: func.func @one_wait_serves_all
// CHECK:       %v = tcgen05.ld %t
// CHECK-NEXT:  }
// CHECK-NEXT:  tcgen05.wait load {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  tcgen05.fence before_thread_sync
// CHECK-NEXT:  nvvm.barrier
// CHECK:       tcgen05.st %z, %t
// CHECK-NEXT:  }
// CHECK-NEXT:  tcgen05.wait store {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT:  tcgen05.fence before_thread_sync
// CHECK-NEXT:  nvvm.barrier
// CHECK-NEXT:  tcgen05.fence after_thread_sync
// CHECK-NEXT:  scf.if %wg0 {
// CHECK-NEXT:    tcgen05.st %z, %t
// CHECK-NEXT:  }
func.func @one_wait_serves_all() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
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
  %wg1 = arith.cmpi uge, %warp, %c4 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  scf.if %wg0 {
    %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  }
  nvvm.barrier
  scf.if %wg1 {
    tcgen05.st %z, %t shape_32x32b x1 : vector<1xi32>
  }
  nvvm.barrier
  scf.if %wg0 {
    tcgen05.st %z, %t shape_32x32b x1 : vector<1xi32>
  }
  tcgen05.wait store
  nvvm.barrier
  scf.if %w0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}
