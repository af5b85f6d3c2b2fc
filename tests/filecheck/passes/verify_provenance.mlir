// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// tmem-verify, accesses against the allocations live where they run (issue 9): use after free,
// a stale base after a re-alloc, an access past the end of its allocation, TMEM use with no
// allocation, and the 512-column budget. Each buggy kernel is followed by its legal twin.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Use after free: the dealloc is ordered before the ld (same warp).
func.func @use_after_free() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{from this allocation}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  // expected-note@+1 {{the base was loaded here}}
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+1 {{which a tcgen05.dealloc frees here}}
  tcgen05.dealloc %a, 32
  // expected-error@+1 {{tcgen05.ld accesses TMEM whose allocation is freed on every path to it (use after free)}}
  %v = tcgen05.ld %a shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Twin: the ld completes before the dealloc.
func.func @use_before_free() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %v = tcgen05.ld %a shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.dealloc %a, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A stale base: %a was loaded from the first allocation, which is freed and replaced.
func.func @stale_base() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c1 = arith.constant 1 : i32
  %one = vector.broadcast %c1 : i32 to vector<1xi32>
  // expected-note@+1 {{from this allocation}}
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  // expected-note@+1 {{the base was loaded here}}
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-note@+1 {{which a tcgen05.dealloc frees here}}
  tcgen05.dealloc %a, 64
  // expected-note@+1 {{the slot holds this allocation now}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.st uses a TMEM base loaded before its allocation was freed; the slot now holds another allocation (a stale base after a re-alloc)}}
  tcgen05.st %one, %a shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  tcgen05.dealloc %b, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Twin: the base is loaded again after the re-alloc.
func.func @fresh_base() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c1 = arith.constant 1 : i32
  %one = vector.broadcast %c1 : i32 to vector<1xi32>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.dealloc %a, 64
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %one, %b shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  tcgen05.dealloc %b, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Past the end: 32 columns allocated, an .x64 access.
func.func @past_the_end() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the allocation of 32 columns}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.ld of warp 0 reaches columns 0..63 of its allocation, which has 32 columns (columns 0..31)}}
  %v = tcgen05.ld %a shape_32x32b x64 : vector<64xi32>
  tcgen05.wait load
  tcgen05.dealloc %a, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Twin: 64 columns allocated.
func.func @fits() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %v = tcgen05.ld %a shape_32x32b x64 : vector<64xi32>
  tcgen05.wait load
  tcgen05.dealloc %a, 64
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Past the end in a loop over column chunks: the last chunk (columns 96..127) overflows.
func.func @chunk_past_the_end() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the allocation of 64 columns}}
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c32 = arith.constant 32 : i32
    %off = arith.muli %ii, %c32 : i32
    %t = arith.addi %a, %off : i32
    // expected-error@+1 {{tcgen05.ld of warp 0 reaches columns 0..127 of its allocation, which has 64 columns (columns 0..63)}}
    %v = tcgen05.ld %t shape_32x32b x32 : vector<32xi32>
    tcgen05.wait load
  }
  tcgen05.dealloc %a, 64
  func.return
}

// -----

// TMEM use with no allocation in the kernel.
func.func @no_alloc(%t: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  // expected-error@+2 {{tcgen05.ld accesses TMEM but this kernel allocates none: no tcgen05.alloc on any path}}
  // expected-warning@+1 {{cannot prove that warp 0's tcgen05.ld stays in its lane quarter 0..31}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The budget: 512 columns live, then 256 more can never be satisfied.
func.func @over_budget() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  // expected-note@+1 {{512 columns allocated here are still live}}
  tcgen05.alloc %s, 512 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.alloc of 256 columns can never be satisfied: 512 columns are still allocated (required: 768, hardware limit: 512); it blocks forever}}
  tcgen05.alloc %s2, 256 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %b = llvm.load %s2 : !llvm.ptr<3> -> i32
  tcgen05.dealloc %b, 256
  tcgen05.dealloc %a, 512
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Twin: 256 + 256 fit.
func.func @within_budget() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  tcgen05.alloc %s, 256 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.alloc %s2, 256 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %b = llvm.load %s2 : !llvm.ptr<3> -> i32
  tcgen05.dealloc %b, 256
  tcgen05.dealloc %a, 256
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Use after free at the NVVM level: another warp frees, a barrier orders it before the ld.
llvm.func @use_after_free_nvvm() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>} {
  %n = llvm.mlir.constant(32 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = llvm.udiv %tid, %c32 : i32
  %w0 = llvm.icmp "eq" %warp, %c0 : i32
  llvm.cond_br %w0, ^alloc, ^joined
^alloc:
  // expected-note@+1 {{from this allocation}}
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  llvm.br ^joined
^joined:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  // expected-note@+1 {{the base was loaded here}}
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %lanes = llvm.mul %warp, %c32 : i32
  %lane_bits = llvm.shl %lanes, %c16 : i32
  %t = llvm.add %a, %lane_bits : i32
  llvm.cond_br %w0, ^free, ^wait
^free:
  %p = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  // expected-note@+1 {{which a tcgen05.dealloc frees here}}
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^wait
^wait:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %q = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  // expected-error@+1 {{nvvm.tcgen05.ld accesses TMEM whose allocation is freed on every path to it (use after free)}}
  %v = nvvm.tcgen05.ld %q shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.wait <load>
  llvm.return
}
