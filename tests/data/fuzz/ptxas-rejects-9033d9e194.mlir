// fuzz finding (issue 14): ptxas-rejects [ptx] ptxas _ line _; error   : Argument _ of instruction _: value _ out of range, expected to be in range [_.._]


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @no_reqntid() attributes {nvvm.kernel} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %n = llvm.mlir.constant(1024 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = llvm.lshr %tid, %c5 : i32
  %w0 = llvm.icmp "eq" %warp, %c0 : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  llvm.cond_br %w0, ^alloc, ^done
^alloc:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}

