// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// tmem-verify, allocation lifecycle: sizes must not increase, no alloc after relinquish, every
// path frees what it allocated, dealloc frees exactly a live allocation, one warp allocates.
// Every kernel below is otherwise correct (waits and fences in place).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// 256 then 128 is fine; 128 then 256 is not (on the path through both allocations).
func.func @sizes_grow() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  // expected-note@+1 {{the earlier allocation of 128 columns}}
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.alloc of 256 columns follows an allocation of 128 columns on some path: allocation sizes must not increase within a CTA}}
  tcgen05.alloc %s2, 256 : !llvm.ptr<3>
  %b = llvm.load %s2 : !llvm.ptr<3> -> i32
  tcgen05.dealloc %a, 128
  tcgen05.dealloc %b, 256
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Decreasing sizes are fine, and two allocations on different paths are not ordered.
func.func @sizes_fine(%c: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  scf.if %c {
    tcgen05.alloc %s, 128 : !llvm.ptr<3>
    %a = llvm.load %s : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 128
  } else {
    tcgen05.alloc %s, 256 : !llvm.ptr<3>
    %a = llvm.load %s : !llvm.ptr<3> -> i32
    tcgen05.alloc %s2, 64 : !llvm.ptr<3>
    %b = llvm.load %s2 : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 64
    tcgen05.dealloc %a, 256
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.mlir.global internal @slot2() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @after_relinquish() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %s2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  // expected-note@+1 {{the CTA relinquished its allocation permit here}}
  tcgen05.relinquish_alloc_permit
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.alloc is reachable after tcgen05.relinquish_alloc_permit: the CTA gave up its right to allocate}}
  tcgen05.alloc %s2, 32 : !llvm.ptr<3>
  %b = llvm.load %s2 : !llvm.ptr<3> -> i32
  tcgen05.dealloc %b, 32
  tcgen05.dealloc %a, 64
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The relinquish happens in a loop's later iteration: the alloc of the next iteration is
// reachable after it.
func.func @relinquish_in_loop() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error@+1 {{tcgen05.alloc is reachable after tcgen05.relinquish_alloc_permit}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    %a = llvm.load %s : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 32
    // expected-note@+1 {{the CTA relinquished its allocation permit here}}
    tcgen05.relinquish_alloc_permit
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Path-sensitive: the dealloc is skipped when %early holds.
func.func @leak_on_a_path(%early: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{TMEM allocated here may still be allocated when the kernel exits: every path must tcgen05.dealloc it}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %early {
  } else {
    tcgen05.dealloc %a, 32
  }
  // expected-note@+1 {{a path leaves the kernel here with it allocated}}
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The same leak in an upstream NVVM kernel with llvm control flow.
llvm.func @leak_nvvm(%early: i1) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %n = llvm.mlir.constant(32 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{TMEM allocated here may still be allocated when the kernel exits}}
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  llvm.cond_br %early, ^out, ^free
^free:
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.return
^out:
  // expected-note@+1 {{a path leaves the kernel here with it allocated}}
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Correlated branches on the warp index: warp 0 allocates and frees, no path leaks.
func.func @warp0_allocates() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
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
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %w0 {
    tcgen05.dealloc %a, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Warp 0 allocates, warp 1 frees: the path where warp 1 skips the dealloc leaks.
func.func @uncorrelated_free(%flag: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %w1 = arith.cmpi eq, %warp, %c1 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    // expected-error@+1 {{TMEM allocated here may still be allocated when the kernel exits}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %go = arith.andi %w1, %flag : i1
  scf.if %go {
    tcgen05.dealloc %a, 32
  }
  // expected-note@+1 {{a path leaves the kernel here with it allocated}}
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @double_free() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the allocation it would free}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.dealloc %a, 32
  // expected-error@+1 {{tcgen05.dealloc frees TMEM that is not allocated on some path to it (never allocated, or already freed)}}
  tcgen05.dealloc %a, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @wrong_size() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{allocated 64 columns here}}
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.dealloc frees 32 columns but the allocation it frees has 64}}
  tcgen05.dealloc %a, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @offset_address() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c32 = arith.constant 32 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the allocation}}
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %b = arith.addi %a, %c32 : i32
  // expected-error@+1 {{tcgen05.dealloc must get the address tcgen05.alloc returned; this one is offset by 0 lanes and 32 columns}}
  tcgen05.dealloc %b, 64
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A negative offset is a signed distance: one column left, not lane 65535 and column 65535.
func.func @offset_address_back() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c-1 = arith.constant -1 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the allocation}}
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %b = arith.addi %a, %c-1 : i32
  // expected-error@+1 {{tcgen05.dealloc must get the address tcgen05.alloc returned; this one is offset by 0 lanes and -1 columns}}
  tcgen05.dealloc %b, 64
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The freed address comes from a kernel argument: which allocation is it?
func.func @unknown_dealloc(%t: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  // expected-warning@+1 {{cannot tell which allocation this tcgen05.dealloc frees: its address is not loaded from a tcgen05.alloc slot}}
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// No warp condition: all four warps allocate (and free) the same slot.
func.func @every_warp_allocates() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+2 {{tcgen05.alloc runs in warps 0, 1, 2, 3: exactly one warp of the CTA may allocate (guard it with a condition on the warp index)}}
  // expected-note@+1 {{the tcgen05.alloc}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  // The other warps' allocations write the slot while this one reads it.
  // expected-error@+1 {{reads the TMEM address that another warp's tcgen05.alloc writes}}
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.dealloc runs in warps 0, 1, 2, 3: exactly one warp of the CTA may free}}
  tcgen05.dealloc %a, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @mixed_cta_groups() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{cta_group::1 is used here}}
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-error@+1 {{tcgen05.dealloc uses cta_group::2 but this kernel already uses cta_group::1: all tcgen05 instructions of a kernel use the same cta_group}}
  tcgen05.dealloc %a, 32 cta_group(2)
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Warp 0 allocates; the other warps read the slot with no barrier in between.
func.func @slot_read_before_barrier() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    // expected-note@+1 {{the tcgen05.alloc}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  // expected-error@+1 {{reads the TMEM address that another warp's tcgen05.alloc writes, with no barrier between them: other warps may read the slot only after a CTA barrier}}
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %a, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @slot_read_before_alloc() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-error@+1 {{reads the TMEM address slot before any tcgen05.alloc wrote it}}
  %early = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.dealloc %a, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Different conditions are not correlated: when %a holds and %b does not, the TMEM leaks.
func.func @uncorrelated_conditions(%a: i1, %b: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %a {
    // expected-error@+2 {{TMEM allocated here may still be allocated when the kernel exits}}
    // expected-note@+1 {{the allocation it would free}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  // And when %b holds but %a does not, nothing was allocated.
  scf.if %b {
    // expected-error@+1 {{reads the TMEM address slot before any tcgen05.alloc wrote it}}
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    // expected-error@+1 {{tcgen05.dealloc frees TMEM that is not allocated on some path to it}}
    tcgen05.dealloc %t, 32
  }
  // expected-note@+1 {{a path leaves the kernel here with it allocated}}
  func.return
}
