// RUN: tmem-opt %s -t ptx | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// REQUIRES: ptxas

// Allocation lifecycle, waits and fences in LLVM NVPTX's spelling. A constant nCols stays an
// immediate (so ptxas checks it); a dynamic one is a register. cta_group::2 gets its own kernel:
// ptxas rejects a function that mixes cta_group::1 and ::2.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: .visible .entry lifecycle_cta1(
// CHECK-NEXT:  .param .b32 lifecycle_cta1_param_0,
// CHECK-NEXT:  .param .u64 .ptr .align 1 lifecycle_cta1_param_1
// CHECK-NEXT: )
// CHECK-NEXT: {
// CHECK-NEXT:  .reg .b32 %r<4>;
// CHECK-NEXT:  .reg .b64 %rd<2>;
// CHECK-EMPTY:
// CHECK-NEXT:  ld.param.b32 %r1, [lifecycle_cta1_param_0];
// CHECK-NEXT:  ld.param.b64 %rd1, [lifecycle_cta1_param_1];
// CHECK-NEXT:  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 128;
// CHECK-NEXT:  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], %r1;
// CHECK-NEXT:  tcgen05.alloc.cta_group::1.sync.aligned.b32 [%rd1], 32;
// CHECK-NEXT:  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CHECK-NEXT:  ld.shared.b32 %r2, [slot];
// CHECK-NEXT:  tcgen05.wait::ld.sync.aligned;
// CHECK-NEXT:  tcgen05.wait::st.sync.aligned;
// CHECK-NEXT:  tcgen05.fence::before_thread_sync;
// CHECK-NEXT:  bar.sync 0;
// CHECK-NEXT:  tcgen05.fence::after_thread_sync;
// CHECK-NEXT:  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r2, 128;
// CHECK-NEXT:  add.s32 %r3, %r2, 128;
// CHECK-NEXT:  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, %r1;
// CHECK-NEXT:  ret;
// CHECK-EMPTY:
// CHECK-NEXT: }
llvm.func @lifecycle_cta1(%n: i32, %generic_slot: !llvm.ptr) attributes {nvvm.kernel} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c128 = llvm.mlir.constant(128 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  nvvm.tcgen05.alloc %slot, %c128 : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %generic_slot, %c32 : !llvm.ptr, i32
  nvvm.tcgen05.relinquish_alloc_permit
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  nvvm.tcgen05.wait <load>
  nvvm.tcgen05.wait <store>
  nvvm.tcgen05.fence <before>
  nvvm.barrier
  nvvm.tcgen05.fence <after>
  %taddr = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %taddr, %c128 : !llvm.ptr<6>, i32
  %next = llvm.add %base, %c128 : i32
  %taddr2 = llvm.inttoptr %next : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %taddr2, %n : !llvm.ptr<6>, i32
  llvm.return
}

// CHECK-LABEL: .visible .entry lifecycle_cta2(
// CHECK:       tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [slot], 256;
// CHECK-NEXT:  tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CHECK-NEXT:  ld.shared.b32 %r1, [slot];
// CHECK-NEXT:  tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 256;
// CHECK-NEXT:  ret;
llvm.func @lifecycle_cta2() attributes {nvvm.kernel} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c256 = llvm.mlir.constant(256 : i32) : i32
  nvvm.tcgen05.alloc %slot, %c256, group = <cta_2> : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %taddr = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %taddr, %c256, group = <cta_2> : !llvm.ptr<6>, i32
  llvm.return
}
