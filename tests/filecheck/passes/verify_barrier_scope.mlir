// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// The same at the NVVM level:
// NVVM: error: nvvm.tcgen05.st of warp 0 and nvvm.tcgen05.ld of warp 4 touch the same TMEM cells with no wait and barrier between them
// NVVM: error: nvvm.tcgen05.ld of warp 4 and nvvm.tcgen05.st of warp 0 touch the same TMEM cells with no wait and barrier between them
// NVVM: warning: its count of 64 threads does not match the 96 threads of the warps that may reach it (0, 1, 2)
// NVVM-NOT: error

// Named barriers (bar.sync id, count): one whose count is every thread of the CTA, reached by
// every warp, is a CTA barrier; one with fewer threads orders only the warps that take part
// (PTX ISA "barrier{.cta}"): its interval begins for them alone, and accesses of the other warps
// are checked against theirs on both sides of it.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %n = llvm.mlir.constant(32 : i32) : i32
  %id = llvm.mlir.constant(1 : i32) : i32
  %all = llvm.mlir.constant(128 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = llvm.lshr %tid, %c5 : i32
  %w0 = llvm.icmp "eq" %w, %c0 : i32
  llvm.cond_br %w0, ^a, ^b
^a:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  llvm.br ^b
^b:
  nvvm.tcgen05.fence <before>
  nvvm.barrier id = %id number_of_threads = %all
  nvvm.tcgen05.fence <after>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  nvvm.tcgen05.fence <before>
  nvvm.barrier id = %id number_of_threads = %all
  llvm.cond_br %w0, ^c, ^d
^c:
  nvvm.tcgen05.fence <after>
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^d
^d:
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @epilogue_sync() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %id = arith.constant 1 : i32
  %n = arith.constant 32 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %w0 {
    // Warp 0 alone: its count (32) is the threads that reach it.
    nvvm.barrier id = %id number_of_threads = %n
    tcgen05.dealloc %t, 32
  }
  func.return
}

// -----

// A named barrier of warps 0 and 1 does not order warp 4: warp 4's ld (before it, in time, as far
// as anything proves) and warp 0's st after it touch the same cells (lane quarter 0) unordered.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @excluded_warp() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %id = arith.constant 1 : i32
  %n = arith.constant 64 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  %w4 = arith.cmpi eq, %w, %c4 : i32
  %pair = arith.cmpi ult, %w, %c2 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %w4 {
    // expected-note@+1 {{the tcgen05.ld}}
    %r = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
  }
  scf.if %pair {
    tcgen05.fence before_thread_sync
    nvvm.barrier id = %id number_of_threads = %n
    tcgen05.fence after_thread_sync
  }
  scf.if %w0 {
    %v = arith.constant dense<7> : vector<1xi32>
    // expected-error@+1 {{tcgen05.st of warp 0 and tcgen05.ld of warp 4 touch the same TMEM cells with no wait and barrier between them}}
    tcgen05.st %v, %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %t, 32
  }
  func.return
}

// -----

// The legal twin: warp 4 takes part in the named barrier (96 threads: warps 0, 1 and 4).
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @included_warp() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %id = arith.constant 1 : i32
  %n = arith.constant 96 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  %w4 = arith.cmpi eq, %w, %c4 : i32
  %low = arith.cmpi ult, %w, %c2 : i32
  %group = arith.ori %low, %w4 : i1
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %w4 {
    %r = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
  }
  scf.if %group {
    tcgen05.fence before_thread_sync
    nvvm.barrier id = %id number_of_threads = %n
    tcgen05.fence after_thread_sync
  }
  scf.if %w0 {
    %v = arith.constant dense<7> : vector<1xi32>
    tcgen05.st %v, %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %t, 32
  }
  func.return
}

// -----

// A handoff through named barriers that never bring the producer and the consumer together:
// warps 0 and 1 meet at barrier 1, warps 4 and 5 at barrier 2; warp 4 reads what warp 0 wrote.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @two_groups() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %id1 = arith.constant 1 : i32
  %id2 = arith.constant 2 : i32
  %n = arith.constant 64 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  %w4 = arith.cmpi eq, %w, %c4 : i32
  %first = arith.cmpi ult, %w, %c2 : i32
  %ge4 = arith.cmpi uge, %w, %c4 : i32
  %lt6 = arith.cmpi ult, %w, %c6 : i32
  %second = arith.andi %ge4, %lt6 : i1
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %w0 {
    %v = arith.constant dense<7> : vector<1xi32>
    // expected-note@+1 {{the tcgen05.st}}
    tcgen05.st %v, %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
  }
  scf.if %first {
    tcgen05.fence before_thread_sync
    nvvm.barrier id = %id1 number_of_threads = %n
  }
  scf.if %second {
    nvvm.barrier id = %id2 number_of_threads = %n
    tcgen05.fence after_thread_sync
  }
  scf.if %w4 {
    // expected-error@+1 {{tcgen05.ld of warp 4 and tcgen05.st of warp 0 touch the same TMEM cells with no wait and barrier between them}}
    %r = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %t, 32
  }
  func.return
}

// -----

// A count that is not the threads reaching the barrier: which warps it orders is a guess.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @count_mismatch() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %id = arith.constant 1 : i32
  %n = arith.constant 64 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %w, %c0 : i32
  %three = arith.cmpi ult, %w, %c3 : i32
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %three {
    // expected-warning@+1 {{its count of 64 threads does not match the 96 threads of the warps that may reach it (0, 1, 2); the TMEM checks take it as ordering those warps with each other}}
    nvvm.barrier id = %id number_of_threads = %n
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %t, 32
  }
  func.return
}
