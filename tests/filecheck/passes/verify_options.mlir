// RUN: tmem-opt %s --split-input-file -p 'tmem-verify{ptx-version=9.4}' --verify-diagnostics
// RUN: not tmem-opt %s --split-input-file -p tmem-verify 2>&1 | filecheck %s --check-prefix=PTX86
// RUN: tmem-opt %s --split-input-file -p 'tmem-verify{conservative=true ptx-version=9.4}' 2>&1 | filecheck %s --check-prefix=CONSERVATIVE
// RUN: not tmem-opt %s -p 'tmem-verify{ptx-version=nine}' 2>&1 | filecheck %s --check-prefix=BADVERSION
// RUN: not tmem-opt %s -p 'tmem-insert-waits{ptx-version=7.0}' 2>&1 | filecheck %s --check-prefix=OLDVERSION

// The rules depend on the targeted PTX version: 9.4 pipelines same-warp st->ld, st->st and
// ld->st, so this kernel needs no wait between them there; under the default 8.6 it does.
// The conservative option notes register reads before wait::ld (never an error).

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @pipelined_pairs() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %z = arith.constant dense<0> : vector<2xi32>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %z, %t shape_32x32b x2 : vector<2xi32>
  tcgen05.st %z, %t shape_32x32b x2 : vector<2xi32>
  %v = tcgen05.ld %t shape_32x32b x2 : vector<2xi32>
  %w = arith.addi %v, %v : vector<2xi32>
  tcgen05.st %w, %t shape_32x32b x2 : vector<2xi32>
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

// PTX86-COUNT-3: error: {{.*}}rule {{[12]}}
// PTX86-NOT: error

// CONSERVATIVE: :21:3: note: conservative: uses the registers of a tcgen05.ld before tcgen05.wait::ld
// CONSERVATIVE-NOT: error

// BADVERSION: error: option ptx-version: a PTX version looks like 8.6, got 'nine'
// OLDVERSION: error: option ptx-version: tcgen05 exists from PTX ISA 8.6 on, got 7.0
