// fuzz finding (issue 14): internal-error [ptx] tmem-opt: internal error: IndexError: list index out of range (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)

// Upstream MLIR (iree-opt) parses and verifies what tmem-opt prints for every nvvm op, and
// reads it as the same IR it reads from this file (the generic forms are identical).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @all_ops(%t: !llvm.ptr<6>, %n: i32, %v8: vector<8xi32>, %v1: vector<1xi32>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 0>} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %off = llvm.mlir.constant(16 : i64) : i64
  %id = llvm.mlir.constant(1 : i32) : i32
  %threads = llvm.mlir.constant(64 : i32) : i32
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %slot, %n, group = <cta_2> : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.barrier id = %id
  nvvm.barrier id = %id number_of_threads = %threads
  nvvm.tcgen05.fence <after>
  %a = nvvm.tcgen05.ld %t shape = shape_16x128b : vector<8xi32>
  %b = nvvm.tcgen05.ld %t pack shape = shape_16x256b : vector<128xi32>
  %c = nvvm.tcgen05.ld %t, %off pack shape = shape_16x32bx2 : vector<1xi32>
  nvvm.tcgen05.wait <load>
  nvvm.tcgen05.st %t, %v8 shape = shape_16x256b : vector<8xi32>
  nvvm.tcgen05.st %t, %v1 unpack shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.st %t, %v1, %off unpack shape = shape_16x32bx2 : vector<1xi32>
  nvvm.tcgen05.wait <store>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %cta = nvvm.read.ptx.sreg.ctaid.y range <i32, 0, 65535> : i32
  %lane = nvvm.read.ptx.sreg.laneid : i32
  %warp = nvvm.read.ptx.sreg.warpid : i32
  %nwarp = nvvm.read.ptx.sreg.nwarpid : i32
  nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  nvvm.tcgen05.dealloc %t, %n, group = <cta_2> : !llvm.ptr<6>, i32
  llvm.return
}
