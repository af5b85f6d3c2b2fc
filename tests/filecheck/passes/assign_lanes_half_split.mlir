// 16x32bx2: a warp's 16-lane slab holds two column ranges, one per half of the warp.
// RUN: tmem-opt -p tmem-assign-lanes %s | filecheck %s
// RUN: tmem-opt -p tmem-assign-lanes %s | tmem-opt | filecheck %s

!m64 = !tcgen05.tmem<64x64xf32, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>

// Threads 0-15 hold row 16w + t, columns 0..31; threads 16-31 the same rows, columns 32..63.
// CHECK-LABEL: func.func @two_column_ranges
// CHECK:       %[[A:.*]] = arith.addi %base, %{{.*}} : i32
// CHECK-NEXT:  %[[L:.*]] = tcgen05.ld %[[A]], offset 32 shape_16x32bx2 x32 : vector<32xi32>
// CHECK-NEXT:  vector.bitcast %[[L]] : vector<32xi32> to vector<32xf32>
// CHECK-NOT:   tcgen05.ld
func.func @two_column_ranges(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !m64
  %r = tcgen05.tile_load %buf [0, 0] [64, 64] frag <S[(4, 16, 2, 32) : (1@warpid, 1@laneid, 16@laneid, 1)]> : !m64 -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// A 128-row tile whose rows 16-31 of each quarter sit in lanes 0-15, 32 columns on: the default
// (row per thread) fragment is served by 16x32bx2 with the half-split offset 32.
!split = !tcgen05.tmem<128x32xf32, S[(4, 2, 16, 32) : (32@TLane, 32@TCol, 1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @split_layout
// CHECK:       %[[A:.*]] = arith.addi %base, %{{.*}} : i32
// CHECK-NEXT:  %[[V:.*]] = vector.bitcast %v : vector<32xf32> to vector<32xi32>
// CHECK-NEXT:  tcgen05.st %[[V]], %[[A]], offset 32 shape_16x32bx2 x32 : vector<32xi32>
func.func @split_layout(%base: i32, %v: vector<32xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !split
  tcgen05.tile_store %v, %buf [0, 0] [128, 32] : vector<32xf32>, !split
  func.return
}

// The same with f16: packed, so x16 moves 32 halves per thread; the offset counts 32-bit columns.
!split16 = !tcgen05.tmem<128x32xf16, S[(4, 2, 16, 32) : (32@TLane, 32@TCol, 1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @split_layout_f16
// CHECK:       %[[L:.*]] = tcgen05.ld %{{.*}}, offset 32 shape_16x32bx2 x16 pack : vector<16xi32>
// CHECK-NEXT:  vector.bitcast %[[L]] : vector<16xi32> to vector<32xf16>
func.func @split_layout_f16(%base: i32) -> vector<32xf16> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !split16
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] : !split16 -> vector<32xf16>
  func.return %r : vector<32xf16>
}

// The half-split offset is whatever separates the two column ranges, here 48 columns.
!gap = !tcgen05.tmem<128x32xf32, S[(4, 2, 16, 32) : (32@TLane, 48@TCol, 1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @split_with_gap
// CHECK:       tcgen05.ld %{{.*}}, offset 48 shape_16x32bx2 x32 : vector<32xi32>
func.func @split_with_gap(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !gap
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] : !gap -> vector<32xf32>
  func.return %r : vector<32xf32>
}
