// RUN: tmem-run %s --cluster 4 --arg i32:512 --verify-diagnostics
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | not tmem-run - --cluster 4 --arg i32:512 2>&1 | filecheck %s --check-prefix=NVVM
// RUN: sed -e 's/scf.if %keep {/scf.if %w0 {/' %s | tmem-run - --cluster 4 --arg i32:512 | filecheck %s --check-prefix=TWIN
// RUN: sed -e 's/scf.if %keep {/scf.if %w0 {/' %s | tmem-opt -p convert-tcgen05-to-nvvm | tmem-run - --cluster 4 --arg i32:512 | filecheck %s --check-prefix=TWIN

// A cluster of 4 = CTA pairs (0, 1) and (2, 3). Each pair allocates 32 columns with cta_group::2
// after a cluster barrier; the odd CTAs then skip their half of the pair dealloc and exit, so the
// even CTAs' deallocs can never complete: the peer CTA must still be running. The legal twin
// (every CTA's warp 0 deallocates) runs clean at both levels.
// TWIN: arg0: int32[512] = [0 1 2 3 4 5 6 7 ...
// At the NVVM level the same two errors per pair (the peer's leak, the dealloc waiting for its peer;
// the CLI folds the second pair's into "more like it"):
// NVVM: error: TMEM leak: the 32 columns that warp 4 allocated here at column 0 of CTA 1
// NVVM: note: and 1 more like it at this op
// NVVM: error: nvvm.tcgen05.dealloc (cta_group::2) of warp 0 in CTA 0: every thread of the peer CTA 1 exited without executing its half of the pair deallocation
// NVVM: note: and 1 more like it at this op
// NVVM: tmem-run: 4 errors, 0 warnings

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @k(%out: memref<512xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %w0 {
    // The odd CTAs' halves are never freed (their warps skipped the dealloc):
    // expected-error@below {{TMEM leak: the 32 columns that warp 4 allocated here at column 0 of CTA 1}}
    // expected-error@below {{TMEM leak: the 32 columns that warp 12 allocated here at column 0 of CTA 3}}
    tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3 : i32
  %lane_base = arith.shli %quarter, %c21 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %v = vector.broadcast %tid : i32 to vector<1xi32>
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  %e = vector.extract %r[0] : i32 from vector<1xi32>
  %i = arith.index_cast %tid : i32 to index
  memref.store %e, %out[%i] : memref<512xi32>
  tcgen05.fence before_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  tcgen05.fence after_thread_sync
  %parity = arith.andi %rank, %c1 : i32
  %even = arith.cmpi eq, %parity, %c0 : i32
  %keep = arith.andi %w0, %even : i1
  scf.if %keep {
    // expected-error@below {{tcgen05.dealloc (cta_group::2) of warp 0 in CTA 0: every thread of the peer CTA 1 exited without executing its half of the pair deallocation}}
    // expected-error@below {{tcgen05.dealloc (cta_group::2) of warp 8 in CTA 2: every thread of the peer CTA 3 exited}}
    tcgen05.dealloc %base, 32 cta_group(2)
  }
  func.return
}
