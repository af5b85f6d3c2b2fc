// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// Named barriers (bar.sync id, count): one whose count is every thread of the CTA, reached by
// every warp, is a CTA barrier; one with fewer threads orders only the warps that take part,
// which the TMEM checks do not model yet: they say so rather than pass it silently.

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
    // expected-warning@+2 {{a barrier with a thread count synchronizes only some warps; the TMEM checks treat it as a barrier of the whole CTA}}
    // expected-warning@+1 {{warp 1 never reaches this barrier; the TMEM checks assume every warp of the CTA takes part in it}}
    nvvm.barrier id = %id number_of_threads = %n
    tcgen05.dealloc %t, 32
  }
  func.return
}
