// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op pointer address space must match address space of the referenced global or alias


llvm.mlir.global internal @slot() {addr_space = 6 : i32, alignment = 4 : i64} : i32

// A condition loaded per thread from global memory: it may differ inside a warp; we cannot
// tell, so we say so.
func.func @unknown_condition(%flags: memref<128xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = arith.index_cast %tid : i32 to index
  %f = memref.load %flags[%i] : memref<128xi32>
  %go = arith.cmpi ne, %f, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  scf.if %go {
    tcgen05.dealloc %a, 32
  } else {
    tcgen05.dealloc %a, 32
  }
  func.return
}

