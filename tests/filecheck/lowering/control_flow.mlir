// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | iree-opt > /dev/null
// REQUIRES: iree-opt

// scf.if (with results), scf.for (iter_args) and scf.while become llvm.br / llvm.cond_br with
// block arguments: scf.if and scf.for through xDSL's own convert-scf-to-cf patterns, scf.while
// through ours. cf branches become their llvm twins. The loop compares with "slt" as upstream.

// CHECK-LABEL: llvm.func @control(%n: i32, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK:         %is = llvm.icmp "ne" %odd, %z : i32
// CHECK-NEXT:    llvm.cond_br %is, ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK-NEXT:  ^[[THEN]]:
// CHECK-NEXT:    llvm.br ^[[JOIN:.*]](%n : i32)
// CHECK-NEXT:  ^[[ELSE]]:
// CHECK-NEXT:    llvm.br ^[[JOIN]](%tid : i32)
// CHECK-NEXT:  ^[[JOIN]](%picked: i32):
// CHECK:         llvm.br ^[[HEAD:.*]](%c0, %picked : i64, i32)
// CHECK-NEXT:  ^[[HEAD]](%i: i64, %acc: i32):
// CHECK-NEXT:    %[[C:.*]] = llvm.icmp "slt" %i, %c4 : i64
// CHECK-NEXT:    llvm.cond_br %[[C]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %ii = llvm.trunc %i : i64 to i32
// CHECK-NEXT:    %next = llvm.add %acc, %ii : i32
// CHECK-NEXT:    %[[STEP:.*]] = llvm.add %i, %c1 : i64
// CHECK-NEXT:    llvm.br ^[[HEAD]](%[[STEP]], %next : i64, i32)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    llvm.br ^[[BEFORE:.*]](%acc : i32)
// CHECK-NEXT:  ^[[BEFORE]](%v: i32):
// CHECK-NEXT:    %big = llvm.icmp "ugt" %v, %n : i32
// CHECK-NEXT:    llvm.cond_br %big, ^[[AFTER:.*]](%v : i32), ^[[DONE:.*]](%v : i32)
// CHECK-NEXT:  ^[[AFTER]](%v2: i32):
// CHECK-NEXT:    %h = llvm.lshr %v2, %n : i32
// CHECK-NEXT:    llvm.br ^[[BEFORE]](%h : i32)
// CHECK-NEXT:  ^[[DONE]](%halved: i32):
// CHECK:         llvm.store %halved, %{{.*}} : i32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.br ^tail(%halved : i32)
// CHECK-NEXT:  ^tail(%t: i32):
// CHECK-NEXT:    llvm.cond_br %is, ^a, ^b(%t : i32)
// CHECK-NEXT:  ^a:
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  ^b(%u: i32):
// CHECK-NEXT:    llvm.return
// CHECK-NOT:   scf.
// CHECK-NOT:   cf.
func.func @control(%n: i32, %out: memref<16xi32>) attributes {tcgen05.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %odd = arith.andi %tid, %n : i32
  %is = arith.cmpi ne, %odd, %z : i32
  %picked = scf.if %is -> (i32) {
    scf.yield %n : i32
  } else {
    scf.yield %tid : i32
  }
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %picked) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %next = arith.addi %acc, %ii : i32
    scf.yield %next : i32
  }
  %halved = scf.while (%v = %sum) : (i32) -> i32 {
    %big = arith.cmpi ugt, %v, %n : i32
    scf.condition(%big) %v : i32
  } do {
  ^bb0(%v2: i32):
    %h = arith.shrui %v2, %n : i32
    scf.yield %h : i32
  }
  %idx = arith.index_cast %tid : i32 to index
  memref.store %halved, %out[%idx] : memref<16xi32>
  cf.br ^tail(%halved : i32)
^tail(%t: i32):
  cf.cond_br %is, ^a, ^b(%t : i32)
^a:
  func.return
^b(%u: i32):
  func.return
}
