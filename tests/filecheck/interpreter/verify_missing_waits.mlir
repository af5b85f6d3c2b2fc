// RUN: tmem-run %s --arg i32:128 --verify-diagnostics
// RUN: not tmem-run %s --arg i32:128 2>&1 | filecheck %s
// RUN: not tmem-run %s --arg i32:128 --ptx-version 9.4 2>&1 | filecheck %s --check-prefix=PTX94

// The tcgen05 round trip without waits: the ld races the st of the same warp (rule 2), and the
// dealloc frees cells whose ld/st another warp never completed (rule 4). PTX 9.4 pipelines the
// same-warp st -> ld, but the dealloc still needs the waits.
// CHECK: error: tcgen05.ld of warp 3 (thread 96) reads TMEM lane 96, column 0 while the tcgen05.st of the same warp on it is still outstanding: rule 2 (store completion) needs tcgen05.wait::st in between
// PTX94-NOT: rule 2
// PTX94: rule 4 (dealloc)

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @tmem_roundtrip(%out: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %value = vector.broadcast %tid : i32 to vector<1xi32>
  // expected-note@+2 {{the outstanding tcgen05.st of warp 3}}
  // expected-note@+1 {{the outstanding tcgen05.st of warp 3}}
  tcgen05.st %value, %taddr shape_32x32b x1 : vector<1xi32>
  // expected-error@+2 {{rule 2 (store completion) needs tcgen05.wait::st in between}}
  // expected-note@+1 {{the outstanding tcgen05.ld of warp 3}}
  %back = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  %elem = vector.extract %back[0] : i32 from vector<1xi32>
  %idx = arith.index_cast %tid : i32 to index
  memref.store %elem, %out[%idx] : memref<128xi32>
  nvvm.barrier
  scf.if %is_warp0 {
    // expected-error@+2 {{while the tcgen05.st of warp 3 (thread 96) on it is still outstanding}}
    // expected-error@+1 {{while the tcgen05.ld of warp 3 (thread 96) on it is still outstanding}}
    tcgen05.dealloc %base, 32
  }
  func.return
}
