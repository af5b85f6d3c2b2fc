// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// tcgen05.decl_buffer views an allocated TMEM address as a laid-out buffer, in several layouts.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: func.func @buffers
func.func @buffers() {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 512 : !llvm.ptr<3>
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  // The full-width accumulator: row i in lane i, column j in column j.
  // CHECK: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<128x512xf32, S[(128, 512) : (1@TLane, 1@TCol)]>
  // GENERIC: "tcgen05.decl_buffer"(%{{.*}}) : (i32) -> !tcgen05.tmem<128x512xf32, S[(128, 512) : (1@TLane, 1@TCol)]>
  %acc = tcgen05.decl_buffer %base : !tcgen05.tmem<128x512xf32, S[(128, 512) : (1@TLane, 1@TCol)]>
  // The M=64 layout: rows 16w..16w+15 in lanes 32w..32w+15.
  // CHECK-NEXT: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
  %m64 = tcgen05.decl_buffer %base : !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
  // A column offset in the layout places the tile at column 256 of the allocation.
  // CHECK-NEXT: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<128x256xi32, S[(128, 256) : (1@TLane, 1@TCol)] + 256@TCol>
  %hi = tcgen05.decl_buffer %base : !tcgen05.tmem<128x256xi32, S[(128, 256) : (1@TLane, 1@TCol)] + 256@TCol>
  // Offsets on both axes, in the order written.
  // CHECK-NEXT: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<32x16xbf16, S[(32, 16) : (1@TLane, 1@TCol)] + 96@TLane + 16@TCol>
  %q = tcgen05.decl_buffer %base : !tcgen05.tmem<32x16xbf16, S[(32, 16) : (1@TLane, 1@TCol)] + 96@TLane + 16@TCol>
  // Two offsets on one axis are summed.
  // CHECK-NEXT: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<128x8xf32, S[(128, 8) : (1@TLane, 1@TCol)] + 12@TCol>
  %sum = tcgen05.decl_buffer %base : !tcgen05.tmem<128x8xf32, S[(128, 8) : (1@TLane, 1@TCol)] + 4@TCol + 8@TCol>
  // A transposed layout with a strided column axis (two 64-column halves interleaved).
  // CHECK-NEXT: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<128x128xf32, S[(2, 128, 64) : (1@TCol, 1@TLane, 2@TCol)]>
  %ilv = tcgen05.decl_buffer %base : !tcgen05.tmem<128x128xf32, S[(2, 128, 64) : (1@TCol, 1@TLane, 2@TCol)]>
  // A one-dimensional buffer: one lane, 32 columns.
  // CHECK-NEXT: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<32xi16, S[32 : 1@TCol]>
  %row = tcgen05.decl_buffer %base : !tcgen05.tmem<32xi16, S[32 : 1@TCol]>
  // A constant column offset on the address is allowed as long as the buffer still fits.
  %c256 = arith.constant 256 : i32
  %upper = arith.addi %base, %c256 : i32
  // CHECK: tcgen05.decl_buffer %{{.*}} : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  %right = tcgen05.decl_buffer %upper : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  tcgen05.dealloc %base, 512
  func.return
}
