// RUN: tmem-run %s --cluster 4 --verify-diagnostics
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | not tmem-run - --cluster 4 2>&1 | filecheck %s --check-prefix=NVVM
// RUN: sed -e 's/%barrier_on = arith.constant false/%barrier_on = arith.constant true/' %s | tmem-run - --cluster 4
// RUN: sed -e 's/%barrier_on = arith.constant false/%barrier_on = arith.constant true/' %s | tmem-opt -p convert-tcgen05-to-nvvm | tmem-run - --cluster 4

// The pair alloc (cta_group::2) needs the peer CTA running: a cluster barrier before it. Here the
// barrier is skipped (%barrier_on is false) in every CTA of a 4-CTA cluster: each allocating warp is
// reported, at both levels. The twin (%barrier_on true) runs clean (exit status 0) at both levels.
// NVVM: error: nvvm.tcgen05.alloc (cta_group::2) of warp 0 has no cluster barrier before it (barrier.cluster.arrive and barrier.cluster.wait): the peer CTA must be running when the pair allocates
// NVVM: note: and 3 more like it at this op
// NVVM-NEXT: tmem-run: 4 errors, 0 warnings

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %barrier_on = arith.constant false
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %barrier_on {
    nvvm.cluster.arrive aligned
    nvvm.cluster.wait aligned
  }
  scf.if %w0 {
    // expected-error@below {{tcgen05.alloc (cta_group::2) of warp 0 has no cluster barrier before it}}
    // expected-error@below {{tcgen05.alloc (cta_group::2) of warp 4 has no cluster barrier before it}}
    // expected-error@below {{tcgen05.alloc (cta_group::2) of warp 8 has no cluster barrier before it}}
    // expected-error@below {{tcgen05.alloc (cta_group::2) of warp 12 has no cluster barrier before it}}
    tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %w0 {
    tcgen05.dealloc %base, 32 cta_group(2)
  }
  func.return
}
