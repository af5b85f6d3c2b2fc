// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// Role dispatch by llvm.switch on the warp index (Triton's warp-specialized partitions): each
// successor is taken by the warps whose value selects it, so one warp allocating and freeing
// under case 0 is proven clean, and a case list that sends two warps there is an error. The
// interpreter agrees (warp 1's alloc races warp 0's).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %n = llvm.mlir.constant(32 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = llvm.lshr %tid, %c5 : i32
  llvm.switch %w : i32, ^other [
    0: ^alloc
  ]
^alloc:
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  llvm.br ^other
^other:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  llvm.switch %w : i32, ^done [
    0: ^free
  ]
^free:
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %n = llvm.mlir.constant(32 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %w = llvm.lshr %tid, %c5 : i32
  llvm.switch %w : i32, ^other [
    0: ^alloc,
    1: ^alloc
  ]
^alloc:
  // expected-error@+1 {{nvvm.tcgen05.alloc runs in warps 0, 1: exactly one warp of the CTA may allocate}}
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  llvm.br ^other
^other:
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  llvm.switch %w : i32, ^done [
    0: ^free
  ]
^free:
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.br ^done
^done:
  llvm.return
}
