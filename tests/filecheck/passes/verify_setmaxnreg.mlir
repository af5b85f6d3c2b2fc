// RUN: tmem-opt %s -p tmem-verify --verify-diagnostics
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm,tmem-verify --verify-diagnostics
// RUN: sed -e 's/scf.if %role {/scf.if %whole_group {/' %s | tmem-opt -p tmem-verify | filecheck %s --check-prefix=TWIN

// tmem-verify: the warps that reach a setmaxnreg are whole warpgroups. The role test looks at warp
// 4 only, so warpgroup 1 splits between the two setmaxnreg; the twin tests the whole warpgroup.
// TWIN: nvvm.setmaxregister decrease 40
// TWIN-NOT: error

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
    // expected-error@below {{setmaxnreg is not warpgroup-uniform: warp 4 of warpgroup 1 may execute this setmaxnreg (dec 40) but warps 5, 6, 7 never do}}
    nvvm.setmaxregister decrease 40
  } else {
    // expected-error@below {{setmaxnreg is not warpgroup-uniform: warps 5, 6, 7 of warpgroup 1 may execute this setmaxnreg (inc 232) but warp 4 never does}}
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
