// RUN: tmem-run %s --arg i32:128 --verify-diagnostics

// Every warp writes lanes 0..31 (no lane-quarter offset), and nobody frees the columns.

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @k(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  scf.if %is_warp0 {
    // expected-error@+1 {{TMEM leak: the 32 columns that warp 0 allocated here at column 0 are never deallocated}}
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %value = vector.broadcast %tid : i32 to vector<1xi32>
  // expected-error@+5 {{tcgen05.st of warp 1 (thread 32) accesses TMEM lane 0, column 0, outside the warp's lane quarter 32..63}}
  // expected-error@+4 {{tcgen05.st of warp 2 (thread 64) accesses TMEM lane 0, column 0, outside the warp's lane quarter 64..95}}
  // expected-error@+3 {{tcgen05.st of warp 3 (thread 96) accesses TMEM lane 0, column 0, outside the warp's lane quarter 96..127}}
  // expected-error@+2 {{with no barrier ordering the two}}
  // expected-note@+1 {{the tcgen05.st of warp}}
  tcgen05.st %value, %base shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  func.return
}
