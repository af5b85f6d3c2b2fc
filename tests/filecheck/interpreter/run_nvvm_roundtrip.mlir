// RUN: tmem-run %s --arg i32:128 --print-full | filecheck %s
// RUN: tmem-run %s --arg i32:128 --json | filecheck %s --check-prefix=JSON

// The upstream-NVVM round trip: each thread stores its id into its TMEM lane and reads it back.
// CHECK: arg0: int32[128] = [  0   1   2
// CHECK: 125 126 127]
// JSON: "errors": []

llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @nvvm_roundtrip(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c21 = llvm.mlir.constant(21 : i32) : i32
  %ncols = llvm.mlir.constant(32 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = llvm.lshr %tid, %c5 : i32
  %is_warp0 = llvm.icmp "eq" %warp, %c0 : i32
  %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
  llvm.cond_br %is_warp0, ^alloc, ^after_alloc
^alloc:
  nvvm.tcgen05.alloc %slot, %ncols : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  llvm.br ^after_alloc
^after_alloc:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %quarter = llvm.and %warp, %c3 : i32
  %lane_base = llvm.shl %quarter, %c21 : i32
  %mine = llvm.add %base, %lane_base : i32
  %taddr = llvm.inttoptr %mine : i32 to !llvm.ptr<6>
  %undef = llvm.mlir.poison : vector<1xi32>
  %value = llvm.insertelement %tid, %undef[%c0 : i32] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %value shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.wait <store>
  %back = nvvm.tcgen05.ld %taddr shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.wait <load>
  %elem = llvm.extractelement %back[%c0 : i32] : vector<1xi32>
  %slot_ptr = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %elem, %slot_ptr : i32, !llvm.ptr<1>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  llvm.cond_br %is_warp0, ^dealloc, ^done
^dealloc:
  %base_ptr = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %base_ptr, %ncols : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}
