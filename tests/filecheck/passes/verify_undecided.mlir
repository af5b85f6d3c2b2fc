// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// Properties tmem-verify cannot decide statically are warnings, each saying what is unknown.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The column offset comes from a kernel argument: the st may or may not hit the loaded cells.
func.func @maybe_same_cells(%col: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<4xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %u = arith.addi %t, %col : i32
  // expected-note@+1 {{the outstanding tcgen05.ld}}
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  // expected-warning@+2 {{cannot prove that tcgen05.st and an outstanding tcgen05.ld of the same warp touch different TMEM cells; tcgen05.wait::ld between them would order them (rule 1 (anti-dependency))}}
  // expected-warning@+1 {{cannot prove that warp 0's tcgen05.st stays in its lane quarter 0..31: the lane of its address is not known statically}}
  tcgen05.st %z, %u shape_32x32b x4 : vector<4xi32>
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Two warpgroups share lane quarters; warpgroup 1 writes at an unknown column offset: it may
// meet warpgroup 0's loads, in the same interval or after the barrier they crossed unwaited.
func.func @maybe_other_warps_cells(%col: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
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
  %u = arith.addi %t, %col : i32
  scf.if %wg0 {
    // expected-note@+2 {{the tcgen05.ld of warp 0}}
    // expected-note@+1 {{the tcgen05.ld}}
    %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  } else {
    // expected-warning@+2 {{cannot prove that tcgen05.st of warp 4 and tcgen05.ld of warp 0 touch different TMEM cells; nothing orders them (rule 3 (handoff))}}
    // expected-warning@+1 {{cannot prove that warp 4's tcgen05.st stays in its lane quarter 0..31}}
    tcgen05.st %z, %u shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
  }
  tcgen05.fence before_thread_sync
  // expected-note@+1 {{the barrier it was still outstanding at}}
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %wg0 {
    tcgen05.wait load
  } else {
    // expected-warning@+2 {{cannot prove that tcgen05.st of warp 4 touches other TMEM cells than tcgen05.ld of warp 0, which warp 0 did not wait for (tcgen05.wait::ld) before the barrier (rule 3 (handoff))}}
    // expected-warning@+1 {{cannot prove that warp 4's tcgen05.st stays in its lane quarter 0..31}}
    tcgen05.st %z, %u shape_32x32b x1 : vector<1xi32>
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

// The taddr depends on a value loaded per thread: it may differ inside a warp.
func.func @maybe_divergent_address(%offsets: memref<32xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = arith.index_cast %tid : i32 to index
  %off = memref.load %offsets[%i] : memref<32xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %u = arith.addi %t, %off : i32
  // expected-warning@+1 {{cannot prove that every thread of a warp passes the same TMEM address to tcgen05.ld}}
  %v = tcgen05.ld %u shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// %warpid is the physical warp slot, not the warp index: which warps allocate is unknown.
func.func @maybe_several_warps() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %wid = nvvm.read.ptx.sreg.warpid : i32
  %first = arith.cmpi eq, %wid, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %first {
    // expected-warning@+2 {{cannot prove that only one warp runs this tcgen05.alloc; exactly one warp of the CTA may allocate}}
    // expected-note@+1 {{the tcgen05.alloc}}
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    // expected-warning@+1 {{reads the TMEM address that another warp's tcgen05.alloc writes, with no barrier between them}}
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    // expected-warning@+1 {{cannot prove that only one warp runs this tcgen05.dealloc; exactly one warp of the CTA may free}}
    tcgen05.dealloc %t, 32
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A named barrier whose thread count is the whole CTA is a CTA barrier (no warning; one with
// fewer threads is, see verify_barrier_scope.mlir); TMEM ops inside scf.parallel are not analysed.
func.func @partial_constructs() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %id = arith.constant 1 : i32
  %n = arith.constant 32 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  nvvm.barrier id = %id number_of_threads = %n
  // expected-warning@+1 {{TMEM operations inside scf.parallel are not analysed (unsupported control flow)}}
  "scf.parallel"(%c0, %c2, %c1) ({
  ^bb0(%i: index):
    %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
    scf.reduce
  }) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (index, index, index) -> ()
  tcgen05.wait load
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Without a declared block size a constant lane offset is wrong only if the warp exists.
// expected-warning@+1 {{the kernel does not declare its block size}}
llvm.func @undeclared_block() attributes {nvvm.kernel} {
  %t = llvm.mlir.constant(0 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = llvm.lshr %tid, %c5 : i32
  %w1 = llvm.icmp "eq" %warp, %c1 : i32
  %p = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  llvm.cond_br %w1, ^load, ^done
^load:
  // expected-warning@+2 {{if the block has warp 1, warp 1 accesses TMEM lanes 0..31, outside its lane quarter 32..63}}
  // expected-warning@+1 {{if the block has warp 1, nvvm.tcgen05.ld accesses TMEM but this kernel allocates none}}
  %v = nvvm.tcgen05.ld %p shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.wait <load>
  llvm.br ^done
^done:
  llvm.return
}
