// RUN: grep -v -e "tcgen05.wait" -e "tcgen05.fence" %S/../../../examples/nvvm_roundtrip.mlir | tmem-opt -p tmem-insert-waits | filecheck %s --check-prefix=EXAMPLE
// RUN: grep -v -e "tcgen05.wait" -e "tcgen05.fence" %S/../../../examples/nvvm_roundtrip.mlir | tmem-opt -p tmem-insert-waits,tmem-verify --verify-diagnostics
// RUN: tmem-opt %s -p tmem-insert-waits | filecheck %s
// RUN: tmem-opt %s -p tmem-insert-waits,tmem-verify --verify-diagnostics

// Upstream NVVM kernels (nvvm.tcgen05.* in llvm.func, llvm-dialect control flow) get
// nvvm.tcgen05.wait / nvvm.tcgen05.fence. The shipped example with its waits and fences
// removed gets back the same number of each (two waits, four fences).

// EXAMPLE:       nvvm.tcgen05.relinquish_alloc_permit
// EXAMPLE-NEXT:  llvm.br ^[[AFTER:.*]]
// EXAMPLE-NEXT:  ^[[AFTER]]:
// EXAMPLE-NEXT:  nvvm.tcgen05.fence <before> {tmem.rule = "rule 3 (handoff)"}
// EXAMPLE-NEXT:  nvvm.barrier
// EXAMPLE-NEXT:  nvvm.tcgen05.fence <after> {tmem.rule = "rule 3 (handoff)"}
// EXAMPLE:       nvvm.tcgen05.st
// EXAMPLE-NEXT:  nvvm.tcgen05.wait <store> {tmem.rule = "rule 2 (store completion)"}
// EXAMPLE-NEXT:  %back = nvvm.tcgen05.ld
// EXAMPLE:       llvm.store
// EXAMPLE-NEXT:  nvvm.tcgen05.wait <load> {tmem.rule = "rule 4 (dealloc)"}
// EXAMPLE-NEXT:  nvvm.tcgen05.fence <before> {tmem.rule = "rule 3 (handoff)"}
// EXAMPLE-NEXT:  nvvm.barrier
// EXAMPLE-NEXT:  nvvm.tcgen05.fence <after> {tmem.rule = "rule 3 (handoff)"}
// EXAMPLE-NEXT:  llvm.cond_br
// EXAMPLE-NOT:   nvvm.tcgen05.wait
// EXAMPLE-NOT:   nvvm.tcgen05.fence

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// An llvm-dialect loop over four 32-column chunks (as scf-to-cf lowers an scf.for): the
// chunks are disjoint, so the stores need no wait between iterations; the loads of the
// second loop need the stores done: one wait::st in the second loop's preheader.
// CHECK-LABEL: llvm.func @chunks
// CHECK:       ^body1:
// CHECK-NOT:   nvvm.tcgen05.wait
// CHECK:       nvvm.tcgen05.st
// CHECK-NOT:   nvvm.tcgen05.wait
// CHECK:       ^between:
// CHECK-NEXT:  nvvm.tcgen05.wait <store> {tmem.rule = "rule 2 (store completion)"}
// CHECK-NEXT:  llvm.br ^head2(%c0 : i32)
// CHECK-NEXT:  ^head2(
// CHECK-NOT:   nvvm.tcgen05.wait
// CHECK:       nvvm.tcgen05.ld
// CHECK-NOT:   nvvm.tcgen05.wait
// CHECK:       ^done:
// CHECK-NEXT:  %bp = llvm.inttoptr
// CHECK-NEXT:  nvvm.tcgen05.wait <load> {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT:  nvvm.tcgen05.dealloc
llvm.func @chunks() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %n = llvm.mlir.constant(128 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %p = llvm.mlir.poison : vector<32xi32>
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  llvm.br ^head1(%c0 : i32)
^head1(%i: i32):
  %more = llvm.icmp "slt" %i, %c4 : i32
  llvm.cond_br %more, ^body1, ^between
^body1:
  %col = llvm.mul %i, %c32 : i32
  %a = llvm.add %base, %col : i32
  %t = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  nvvm.tcgen05.st %t, %p shape = shape_32x32b : vector<32xi32>
  %next = llvm.add %i, %c1 : i32
  llvm.br ^head1(%next : i32)
^between:
  llvm.br ^head2(%c0 : i32)
^head2(%j: i32):
  %more2 = llvm.icmp "slt" %j, %c4 : i32
  llvm.cond_br %more2, ^body2, ^done
^body2:
  %col2 = llvm.mul %j, %c32 : i32
  %a2 = llvm.add %base, %col2 : i32
  %t2 = llvm.inttoptr %a2 : i32 to !llvm.ptr<6>
  %v = nvvm.tcgen05.ld %t2 shape = shape_32x32b : vector<32xi32>
  %next2 = llvm.add %j, %c1 : i32
  llvm.br ^head2(%next2 : i32)
^done:
  %bp = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %bp, %n : !llvm.ptr<6>, i32
  llvm.return
}
