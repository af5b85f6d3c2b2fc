// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// tmem-verify, lane quarters: warp w may access only TMEM lanes 32*(w%4)..32*(w%4)+31, so its
// address carries lane (32*(w%4)) << 16. We reason symbolically over %tid and the block size
// (reqntid): provably right is silent, provably wrong is an error, unknown is a warning.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Triton's form: base + ((warp & 3) << 21), eight warps. Also a 16-lane shape at +16 lanes.
func.func @triton_lane_base() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c21 = arith.constant 21 : i32
  %c16l = arith.constant 1048576 : i32
  %c64 = arith.constant 64 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 128 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %lanes = arith.shli %q, %c21 : i32
  %mine = arith.addi %base, %lanes : i32
  // Warpgroup 1 uses columns 64.. so the two warpgroups do not share cells.
  %wg = arith.shrui %warp, %c3 : i32
  %wgcol = arith.muli %wg, %c64 : i32
  %t = arith.addi %mine, %wgcol : i32
  %v = tcgen05.ld %t shape_32x32b x32 : vector<32xi32>
  %upper = arith.addi %t, %c16l : i32
  %h = tcgen05.ld %upper shape_16x64b x8 : vector<8xi32>
  tcgen05.wait load
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %base, 128
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A constant lane offset 64 << 16 is warp 2's quarter: wrong for warp 0 (and 1 and 3).
func.func @constant_lane_offset() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %lane64 = arith.constant 4194304 : i32
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
  %t = arith.addi %base, %lane64 : i32
  // expected-error@+1 {{warp 0 accesses TMEM lanes 64..95, outside its lane quarter 0..31: warp w may only access lanes 32*(w%4)..32*(w%4)+31 (add (32*(w%4)) << 16 to the address)}}
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

// The same constant under `warp == 2` (warp specialization) is right: only warp 2 runs it.
func.func @warp_specialized_lane() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %lane64 = arith.constant 4194304 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %w2 = arith.cmpi eq, %warp, %c2 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %w2 {
    %t = arith.addi %base, %lane64 : i32
    %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
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

// A 32-lane shape starting at lane 16 straddles two quarters, whatever the warp.
func.func @straddles_quarters() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %lane16 = arith.constant 1048576 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %t = arith.addi %base, %lane16 : i32
  // expected-error@+1 {{warp 0 accesses TMEM lanes 16..47, outside its lane quarter 0..31}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.dealloc %base, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The lane comes from a kernel argument: undecidable, said as a warning.
func.func @unknown_lane(%lane: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c16 = arith.constant 16 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %off = arith.shli %lane, %c16 : i32
  %t = arith.addi %base, %off : i32
  // expected-warning@+1 {{cannot prove that warp 0's tcgen05.ld stays in its lane quarter 0..31: the lane of its address is not known statically}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.dealloc %base, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Adding %tid makes the address differ between the threads of a warp.
func.func @address_not_warp_uniform() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %t = arith.addi %base, %tid : i32
  // expected-error@+1 {{the TMEM address of tcgen05.ld differs between threads of warp 0; every thread of a warp must pass the same address}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.dealloc %base, 64
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Upstream NVVM form: the lane base through llvm.and / llvm.shl and a ptr<6> cast; the
// 16x32bx2 half-split offset puts the upper half 16 lanes further (inside the quarter).
llvm.func @nvvm_lanes() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c21 = llvm.mlir.constant(21 : i32) : i32
  %n = llvm.mlir.constant(32 : i32) : i32
  %half = llvm.mlir.constant(1048576 : i64) : i64
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = llvm.lshr %tid, %c5 : i32
  %w0 = llvm.icmp "eq" %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  llvm.cond_br %w0, ^alloc, ^go
^alloc:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  llvm.br ^go
^go:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = llvm.and %warp, %c3 : i32
  %lanes = llvm.shl %q, %c21 : i32
  %mine = llvm.add %base, %lanes : i32
  %t = llvm.inttoptr %mine : i32 to !llvm.ptr<6>
  %v = nvvm.tcgen05.ld %t, %half shape = shape_16x32bx2 : vector<4xi32>
  nvvm.tcgen05.wait <load>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  llvm.cond_br %w0, ^free, ^done
^free:
  %p = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}
