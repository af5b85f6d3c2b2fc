// examples/chunked_epilogue.mlir allocated by hand and left without waits or fences: run as it is,
// the ld of chunk 0 races its st and the dealloc frees columns with accesses outstanding (the demo
// of docs/pictures.md: tmem-run --map; tests/test_pictures.py pins its lines). `tmem-opt -p
// tmem-insert-waits` (or tmem-pipeline) inserts what it lacks, out of the loop bodies.

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @chunked_epilogue(%out: memref<4096xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %c32_i32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 256 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %seed = vector.broadcast %tid : i32 to vector<32xi32>
  scf.for %chunk = %c0 to %c8 step %c1 {
    %chunk_i32 = arith.index_cast %chunk : index to i32
    %col = arith.muli %chunk_i32, %c32_i32 : i32
    %addr = arith.addi %taddr, %col : i32
    %bump = vector.broadcast %chunk_i32 : i32 to vector<32xi32>
    %vals = arith.addi %seed, %bump : vector<32xi32>
    tcgen05.st %vals, %addr shape_32x32b x32 : vector<32xi32>
  }
  %zero = arith.constant dense<0> : vector<32xi32>
  %sum = scf.for %chunk = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (vector<32xi32>) {
    %chunk_i32 = arith.index_cast %chunk : index to i32
    %col = arith.muli %chunk_i32, %c32_i32 : i32
    %addr = arith.addi %taddr, %col : i32
    %part = tcgen05.ld %addr shape_32x32b x32 : vector<32xi32>
    %next = arith.addi %acc, %part : vector<32xi32>
    scf.yield %next : vector<32xi32>
  }
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  vector.store %sum, %out[%first] : memref<4096xi32>, vector<32xi32>
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 256
  }
  func.return
}
