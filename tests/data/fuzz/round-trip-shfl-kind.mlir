// fuzz finding (issue 14): round-trip [generic] the generic print of nvvm.shfl.sync did not parse (#nvvm.shfl_kindidx)


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// Twin: the quarter taken from the warp index itself, not w % 4: warps 4 and 5 leave leave the TMEM.
llvm.func @quarter_from_warp_index() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 192, 1, 1>} {
  %n = llvm.mlir.constant(32 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %full = llvm.mlir.constant(-1 : i32) : i32
  %clamp = llvm.mlir.constant(31 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = llvm.udiv %tid, %c32 : i32
  %warp = nvvm.shfl.sync idx %full, %w, %c0, %clamp : i32 -> i32
  %w0 = llvm.icmp "eq" %warp, %c0 : i32
  llvm.cond_br %w0, ^alloc, ^joined
^alloc:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  llvm.br ^joined
^joined:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %q4 = llvm.urem %warp, %c4 : i32
  %lanes = llvm.mul %warp, %c32 : i32
  %lane_bits = llvm.shl %lanes, %c16 : i32
  %t = llvm.add %a, %lane_bits : i32
  %q = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %v = nvvm.tcgen05.ld %q shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.wait <load>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  llvm.cond_br %w0, ^free, ^out
^free:
  nvvm.tcgen05.fence <after>
  %p = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.return
^out:
  llvm.return
}

