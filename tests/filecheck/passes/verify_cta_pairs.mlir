// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p convert-tcgen05-to-nvvm,tmem-verify 2>&1 | filecheck %s --check-prefix=NVVM

// cta_group::2 (TMEM_FACTS.md, allocation lifecycle): one warp of each CTA of the pair runs the
// same alloc and dealloc, and the peer CTA must be running: a cluster barrier before the pair
// alloc, and one between the allocation and the pair dealloc, on every path. A pair op that only
// some CTAs of the pair reach (a branch on %cluster_ctarank without the same op on its other way)
// leaves the peer's half unexecuted. The interpreter reports the same kernels on a run
// (tests/filecheck/interpreter/verify_cluster_*.mlir).
// NVVM: error: nvvm.tcgen05.alloc (cta_group::2) may run before any cluster barrier
// NVVM: error: nvvm.tcgen05.dealloc (cta_group::2) may run with no cluster barrier between the pair allocation and it
// NVVM: error: nvvm.tcgen05.alloc (cta_group::2) runs only in the CTAs for which this branch on %cluster_ctarank goes its way
// NVVM: error: nvvm.tcgen05.dealloc (cta_group::2) runs only in the CTAs for which this branch on %cluster_ctarank goes its way
// NVVM-NOT: error

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// No cluster barrier before the pair alloc.
func.func @alloc_first() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{tcgen05.alloc (cta_group::2) may run before any cluster barrier: the peer CTA must be running when the pair allocates}}
  tcgen05.alloc %s, 64 cta_group(2) : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  tcgen05.dealloc %t, 64 cta_group(2)
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A cluster barrier before the alloc, none between it and the dealloc: the peer may have exited.
func.func @dealloc_unguarded() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  tcgen05.alloc %s, 64 cta_group(2) : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.dealloc (cta_group::2) may run with no cluster barrier between the pair allocation and it: the peer CTA must still be running when the pair deallocates}}
  tcgen05.dealloc %t, 64 cta_group(2)
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Only CTA rank 0 allocates: the peer never runs its half.
func.func @one_cta() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+2 {{the CTA rank it depends on}}
  // expected-note@+1 {{the CTA rank it depends on}}
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %leader = arith.cmpi eq, %rank, %c0 : i32
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  // expected-note@+2 {{the branch}}
  // expected-note@+1 {{the branch}}
  scf.if %leader {
    // expected-error@+1 {{tcgen05.alloc (cta_group::2) runs only in the CTAs for which this branch on %cluster_ctarank goes its way: both CTAs of the pair must execute their half of the pair alloc}}
    tcgen05.alloc %s, 64 cta_group(2) : !llvm.ptr<3>
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    nvvm.cluster.arrive aligned
    nvvm.cluster.wait aligned
    // expected-error@+1 {{tcgen05.dealloc (cta_group::2) runs only in the CTAs for which this branch on %cluster_ctarank goes its way: both CTAs of the pair must execute their half of the pair dealloc}}
    tcgen05.dealloc %t, 64 cta_group(2)
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Legal twins: both ways of the rank branch allocate; the cluster barriers are under a condition
// that the pair ops share (a path that skips them skips the ops too); a constant branch.
func.func @legal(%c: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %on = arith.constant true
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %leader = arith.cmpi eq, %rank, %c0 : i32
  scf.if %on {
    nvvm.cluster.arrive aligned
    nvvm.cluster.wait aligned
  }
  scf.if %leader {
    tcgen05.alloc %s, 64 cta_group(2) : !llvm.ptr<3>
  } else {
    tcgen05.alloc %s, 64 cta_group(2) : !llvm.ptr<3>
  }
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %c {
    nvvm.cluster.arrive aligned
    nvvm.cluster.wait aligned
  }
  scf.if %c {
    tcgen05.dealloc %t, 64 cta_group(2)
  } else {
    nvvm.cluster.arrive aligned
    nvvm.cluster.wait aligned
    tcgen05.dealloc %t, 64 cta_group(2)
  }
  func.return
}
