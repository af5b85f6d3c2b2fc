// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// What tmem-verify cannot decide it says as a warning, never passing silently: warpgroup
// tile ops (before tmem-assign-lanes), calls into TMEM-using functions, kernels without a
// declared block size, functions that are not kernels, barriers not every warp reaches.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @tiles(%v: vector<256xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 256 : !llvm.ptr<3>
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %acc = tcgen05.decl_buffer %base : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  // expected-warning@+1 {{tcgen05.tile_store is a warpgroup access: run tmem-assign-lanes before the TMEM rules can be checked or waits inserted}}
  tcgen05.tile_store %v, %acc [0, 0] [128, 256] : vector<256xf32>, !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %w0 {
    tcgen05.dealloc %base, 256
  }
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// expected-warning@+1 {{this function uses TMEM but is not a kernel (no nvvm.kernel or tcgen05.kernel): it is checked as if it were one}}
func.func @helper(%t: i32) {
  // expected-warning@+1 {{cannot prove that warp 0's tcgen05.ld stays in its lane quarter 0..31: the lane of its address is not known statically}}
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  func.return
}

func.func @caller() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  // expected-warning@+1 {{call to @helper, which uses TMEM: TMEM rules are checked within each function, not across calls}}
  func.call @helper(%t) : (i32) -> ()
  tcgen05.dealloc %t, 32
  func.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// expected-warning@+1 {{the kernel does not declare its block size (nvvm.reqntid or tcgen05.reqntid): warp checks assume a one-dimensional block of up to 1024 threads}}
llvm.func @no_reqntid() attributes {nvvm.kernel} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %n = llvm.mlir.constant(32 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = llvm.lshr %tid, %c5 : i32
  %w0 = llvm.icmp "eq" %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  llvm.cond_br %w0, ^alloc, ^done
^alloc:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Only warp 0 reaches the second barrier (bar.sync 0 waits for the whole CTA).
func.func @partial_barrier() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    // expected-warning@+1 {{warp 1 never reaches this barrier; the TMEM checks assume every warp of the CTA takes part in it}}
    nvvm.barrier
    tcgen05.dealloc %t, 32
  }
  func.return
}
