// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics
// RUN: tmem-opt %S/../../../examples/nvvm_roundtrip.mlir -p tmem-verify --verify-diagnostics
// RUN: tmem-opt %S/../../../examples/tmem_roundtrip.mlir -p tmem-insert-waits,tmem-verify --verify-diagnostics
// RUN: tmem-opt %S/../../../examples/racy/chunked_epilogue.mlir -p tmem-insert-waits,tmem-verify --verify-diagnostics
// RUN: tmem-opt %S/../../../examples/chunked_epilogue.mlir -p tmem-pipeline --verify-diagnostics

// Kernels that follow the ISA get no diagnostic at all: the shipped NVVM example, the
// examples after tmem-insert-waits, and the kernels below (loops, branches, warp
// specialization, unstructured control flow, register reads before wait::ld).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A persistent-style loop: each tile is stored, read back and consumed; waits inside the loop
// only where the next iteration rewrites the same cells.
func.func @tile_loop(%out: memref<4096xi32>, %tiles: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 64 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  %seed = vector.broadcast %tid : i32 to vector<16xi32>
  %sum = scf.for %i = %c0 to %tiles step %c1 iter_args(%acc = %seed) -> (vector<16xi32>) {
    tcgen05.st %acc, %t shape_32x32b x16 : vector<16xi32>
    tcgen05.wait store
    %v = tcgen05.ld %t shape_32x32b x16 : vector<16xi32>
    %next = arith.addi %v, %acc : vector<16xi32>
    tcgen05.wait load
    scf.yield %next : vector<16xi32>
  }
  %i = arith.index_cast %tid : i32 to index
  vector.store %sum, %out[%i] : memref<4096xi32>, vector<16xi32>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %base, 64
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Warp specialization: warp 4 (the fifth warp) allocates and frees, warps 0-3 use TMEM.
func.func @warp_specialized() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 160, 1, 1>} {
  %c4 = arith.constant 4 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %z = arith.constant dense<7> : vector<8xi32>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %alloc_warp = arith.cmpi eq, %warp, %c4 : i32
  %epilogue = arith.cmpi ult, %warp, %c4 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %alloc_warp {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %epilogue {
    %q = arith.andi %warp, %c3 : i32
    %l = arith.shli %q, %c21 : i32
    %t = arith.addi %base, %l : i32
    tcgen05.st %z, %t shape_32x32b x8 : vector<8xi32>
    tcgen05.wait store
    %v = tcgen05.ld %t shape_32x32b x8 : vector<8xi32>
    tcgen05.wait load
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %alloc_warp {
    tcgen05.dealloc %base, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Upstream NVVM with an llvm-dialect loop over 32-column chunks (as scf-to-cf lowers one):
// each iteration stores a chunk, the chunks are disjoint, one wait after the loop.
llvm.func @nvvm_chunk_loop() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %n = llvm.mlir.constant(128 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %p = llvm.mlir.poison : vector<32xi32>
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  llvm.br ^header(%c0 : i32)
^header(%i: i32):
  %more = llvm.icmp "slt" %i, %c4 : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %col = llvm.mul %i, %c32 : i32
  %a = llvm.add %base, %col : i32
  %t = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  nvvm.tcgen05.st %t, %p shape = shape_32x32b : vector<32xi32>
  %next = llvm.add %i, %c1 : i32
  llvm.br ^header(%next : i32)
^done:
  nvvm.tcgen05.wait <store>
  %bp = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %bp, %n : !llvm.ptr<6>, i32
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// scf.while with a warp-uniform condition, a ThunderKittens-style batch: several loads,
// then one wait covers them all before the same cells are rewritten.
func.func @while_batch(%limit: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %t8 = arith.addi %t, %c8 : i32
  %r = scf.while (%k = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %k, %limit : i32
    scf.condition(%go) %k : i32
  } do {
  ^bb0(%k2: i32):
    %a = tcgen05.ld %t shape_32x32b x8 : vector<8xi32>
    %b = tcgen05.ld %t8 shape_32x32b x8 : vector<8xi32>
    %sum = arith.addi %a, %b : vector<8xi32>
    tcgen05.wait load
    tcgen05.st %sum, %t shape_32x32b x8 : vector<8xi32>
    tcgen05.wait store
    %k3 = arith.addi %k2, %c1 : i32
    scf.yield %k3 : i32
  }
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Correlated branches on an unknown but uniform condition (a kernel argument): the analysis
// keeps the outcome of %flag along each path, so allocating and freeing under %flag leaks on
// no path, and the wait under %flag covers the st under %flag.
func.func @correlated_flag(%flag: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  scf.if %flag {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  scf.if %flag {
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  }
  scf.if %flag {
    tcgen05.wait store
  }
  scf.if %flag {
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
    tcgen05.wait load
    tcgen05.dealloc %t, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The same correlation through llvm.cond_br in an upstream NVVM kernel.
llvm.func @correlated_cond_br(%flag: i1) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %n = llvm.mlir.constant(32 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  llvm.cond_br %flag, ^alloc, ^middle
^alloc:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  llvm.br ^middle
^middle:
  llvm.cond_br %flag, ^free, ^done
^free:
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A condition negated with `xori %c, true` (xDSL keeps `true : i1` as -1): warp 0 stores, the
// other warps load under the negation, so no warp does both and the st needs no wait before the ld.
func.func @xori_not(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %true = arith.constant true
  %z = arith.constant dense<1> : vector<4xi32>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %nw0 = arith.xori %w0, %true : i1
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  scf.if %w0 {
    tcgen05.st %z, %t shape_32x32b x4 : vector<4xi32>
  }
  scf.if %nw0 {
    %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  }
  tcgen05.wait store
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

// The same with llvm.xor and llvm.mlir.constant(true) in an upstream NVVM kernel.
llvm.func @xor_not_nvvm() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c21 = llvm.mlir.constant(21 : i32) : i32
  %n = llvm.mlir.constant(32 : i32) : i32
  %true = llvm.mlir.constant(true) : i1
  %z = llvm.mlir.constant(dense<1> : vector<4xi32>) : vector<4xi32>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = llvm.lshr %tid, %c5 : i32
  %w0 = llvm.icmp "eq" %warp, %c0 : i32
  %nw0 = llvm.xor %w0, %true : i1
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  llvm.cond_br %w0, ^alloc, ^a1
^alloc:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  llvm.br ^a1
^a1:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = llvm.and %warp, %c3 : i32
  %l = llvm.shl %q, %c21 : i32
  %a = llvm.add %base, %l : i32
  %t = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  llvm.cond_br %w0, ^st, ^a2
^st:
  nvvm.tcgen05.st %t, %z shape = shape_32x32b : vector<4xi32>
  llvm.br ^a2
^a2:
  llvm.cond_br %nw0, ^ld, ^a3
^ld:
  %v = nvvm.tcgen05.ld %t shape = shape_32x32b : vector<4xi32>
  llvm.br ^a3
^a3:
  nvvm.tcgen05.wait <store>
  nvvm.tcgen05.wait <load>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  llvm.cond_br %w0, ^free, ^done
^free:
  %bp = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %bp, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}
