// An epilogue loop: each warp fills its lane quarter of a 128x256 i32 tile (one 32x32b.x32 store
// per 32-column chunk), then reads the tile back chunk by chunk in an scf.for loop and adds the
// chunks up. The tile is a declared buffer whose chunks the loops address at run time (its
// tcgen05.buffer_address + the warp's lane quarter + 32 columns per chunk). Written without waits
// or fences; `tmem-opt -p tmem-pipeline` allocates the tile (tmem-plan-columns: 256 columns, the
// wait::st between the loops and the wait::ld the dealloc needs) and inserts the rest, keeping
// them out of the loop bodies where the ISA allows. examples/racy/chunked_epilogue.mlir is the
// same kernel allocated by hand and run without waits (the races of docs/pictures.md).

!tile = !tcgen05.tmem<128x256xi32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @chunked_epilogue(%out: memref<4096xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
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
  %tile = tcgen05.buffer : !tile
  %base = tcgen05.buffer_address %tile [0, 0] : !tile
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
  func.return
}
