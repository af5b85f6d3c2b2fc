// A warpgroup stores its thread ids into TMEM (32x32b.x1), reads them back, writes them out; no
// wait/fence (`tmem-opt -p tmem-pipeline` inserts those the ISA requires). The low-level path,
// hand-allocated on purpose: warp 0 allocates and frees 32 columns (the other examples declare
// tcgen05.buffer ops for tmem-plan-columns). Twin of tests/data/tmem_roundtrip_sm100a.ptx.

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
  // Warp w owns lanes 32*(w%4)..+31: add (32*(w%4)) << 16 to the base address.
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %taddr = arith.addi %base, %lane_base : i32
  %value = vector.broadcast %tid : i32 to vector<1xi32>
  tcgen05.st %value, %taddr shape_32x32b x1 : vector<1xi32>
  %back = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  %elem = vector.extract %back[0] : i32 from vector<1xi32>
  %idx = arith.index_cast %tid : i32 to index
  memref.store %elem, %out[%idx] : memref<128xi32>
  nvvm.barrier
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}
