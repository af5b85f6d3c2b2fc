// fuzz finding (issue 14): internal-error [tmem-run] tmem-run: internal error: MemoryFault: shared memory of _ bytes does not fit a CTA's window of _ bytes (set TMEM_TRACEBACK=_ for the Python traceback, and pleas


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 17179869184 : i64} : i32

// Only CTA rank 0 allocates: the peer never runs its half.
func.func @one_cta() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %leader = arith.cmpi eq, %rank, %c0 : i32
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %leader {
    tcgen05.alloc %s, 64 cta_group(2) : !llvm.ptr<3>
    %t = llvm.load %s : !llvm.ptr<3> -> i32
    nvvm.cluster.arrive aligned
    nvvm.cluster.wait aligned
    tcgen05.dealloc %t, 64 cta_group(2)
  }
  func.return
}

