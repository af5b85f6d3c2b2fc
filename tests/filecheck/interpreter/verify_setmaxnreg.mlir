// RUN: tmem-run %s --verify-diagnostics
// RUN: sed -e 's/scf.if %role {/scf.if %whole_group {/' %s | tmem-run -
// RUN: sed -e 's/scf.if %role {/scf.if %whole_group {/' %s | tmem-opt -p convert-tcgen05-to-nvvm | tmem-run -

// setmaxnreg must be executed alike by all warps of a warpgroup. Warpgroup 1 (warps 4-7) is the
// producer role, but the role test looks at warp 4 only: warp 4 decreases its registers while
// warps 5-7 take the consumer branch and increase theirs. The twin tests the whole warpgroup.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %role = arith.cmpi eq, %warp, %c4 : i32
  %whole_group = arith.cmpi uge, %warp, %c4 : i32
  scf.if %role {
    // expected-note@below {{the setmaxnreg of warp 4}}
    nvvm.setmaxregister decrease 40
  } else {
    // expected-error@below {{setmaxnreg is not warpgroup-uniform: warp 5 executes this setmaxnreg (inc 232) as its setmaxnreg #1, warp 4 of its warpgroup executes another one (40 registers) there}}
    nvvm.setmaxregister increase 232
  }
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    %base = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %base, 32
  }
  func.return
}
