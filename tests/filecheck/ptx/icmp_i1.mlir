// RUN: iree-opt %s > /dev/null
// RUN: tmem-opt %s -t ptx | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// REQUIRES: iree-opt, ptxas

// llvm.icmp on i1 with every ordering predicate (upstream accepts them all). i1 is {0, 1} unsigned
// and {0, -1} signed, so each is one operand negated and and/or-ed with the other:
// ult = !a & b, ule = !a | b, ugt = a & !b, uge = a | !b, slt = a & !b, sle = a | !b, sgt = !a & b,
// sge = !a | b. A constant left operand swaps the predicate first (true `ugt` %b = `ult` %b, true).

// CHECK-LABEL: .visible .entry i1_order(
// CHECK:       setp.ne.b16 [[A:%p[0-9]+]], %rs{{[0-9]+}}, 0;
// CHECK:       setp.ne.b16 [[B:%p[0-9]+]], %rs{{[0-9]+}}, 0;
// CHECK:       not.pred [[N0:%p[0-9]+]], [[B]];
// CHECK-NEXT:  and.pred [[R0:%p[0-9]+]], [[N0]], [[A]];
// CHECK:       not.pred [[N1:%p[0-9]+]], [[B]];
// CHECK-NEXT:  or.pred [[R1:%p[0-9]+]], [[N1]], [[A]];
// CHECK:       not.pred [[N2:%p[0-9]+]], [[A]];
// CHECK-NEXT:  and.pred [[R2:%p[0-9]+]], [[N2]], [[B]];
// CHECK:       not.pred [[N3:%p[0-9]+]], [[A]];
// CHECK-NEXT:  or.pred [[R3:%p[0-9]+]], [[N3]], [[B]];
// CHECK:       not.pred [[N4:%p[0-9]+]], [[A]];
// CHECK-NEXT:  and.pred [[R4:%p[0-9]+]], [[N4]], [[B]];
// CHECK:       not.pred [[N5:%p[0-9]+]], [[A]];
// CHECK-NEXT:  or.pred [[R5:%p[0-9]+]], [[N5]], [[B]];
// CHECK:       not.pred [[N6:%p[0-9]+]], [[B]];
// CHECK-NEXT:  and.pred [[R6:%p[0-9]+]], [[N6]], [[A]];
// CHECK:       not.pred [[N7:%p[0-9]+]], [[B]];
// CHECK-NEXT:  or.pred [[R7:%p[0-9]+]], [[N7]], [[A]];
// CHECK:       mov.pred [[T:%p[0-9]+]], 1;
// CHECK-NEXT:  not.pred [[N8:%p[0-9]+]], [[B]];
// CHECK-NEXT:  and.pred [[R8:%p[0-9]+]], [[N8]], [[T]];
llvm.func @i1_order(%out: !llvm.ptr<1>, %a: i1, %b: i1) attributes {nvvm.kernel} {
  %t = llvm.mlir.constant(true) : i1
  %r0 = llvm.icmp "slt" %a, %b : i1
  %r1 = llvm.icmp "sle" %a, %b : i1
  %r2 = llvm.icmp "sgt" %a, %b : i1
  %r3 = llvm.icmp "sge" %a, %b : i1
  %r4 = llvm.icmp "ult" %a, %b : i1
  %r5 = llvm.icmp "ule" %a, %b : i1
  %r6 = llvm.icmp "ugt" %a, %b : i1
  %r7 = llvm.icmp "uge" %a, %b : i1
  %r8 = llvm.icmp "ugt" %t, %b : i1
  %x1 = llvm.xor %r0, %r1 : i1
  %x2 = llvm.xor %x1, %r2 : i1
  %x3 = llvm.xor %x2, %r3 : i1
  %x4 = llvm.xor %x3, %r4 : i1
  %x5 = llvm.xor %x4, %r5 : i1
  %x6 = llvm.xor %x5, %r6 : i1
  %x7 = llvm.xor %x6, %r7 : i1
  %x8 = llvm.xor %x7, %r8 : i1
  %z = llvm.zext %x8 : i1 to i32
  llvm.store %z, %out : i32, !llvm.ptr<1>
  llvm.return
}
