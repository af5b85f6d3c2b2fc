// 16-bit data: pack::16b / unpack::16b move two halves per register (twice the columns).
// RUN: tmem-opt -p tmem-assign-lanes %s | filecheck %s
// RUN: tmem-opt -p tmem-assign-lanes %s | tmem-opt | filecheck %s

// A 128x256 bf16 accumulator: 256 halves = 128 packed registers, one 32x32b.x128 per warp.
!acc = !tcgen05.tmem<128x256xbf16, S[(128, 256) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @bf16_rows
// CHECK:       %[[A:.*]] = arith.addi %base, %{{.*}} : i32
// CHECK-NEXT:  %[[R:.*]] = vector.bitcast %v : vector<256xbf16> to vector<128xi32>
// CHECK-NEXT:  tcgen05.st %[[R]], %[[A]] shape_32x32b x128 unpack : vector<128xi32>
// CHECK:       %[[L:.*]] = tcgen05.ld %{{.*}} shape_32x32b x128 pack : vector<128xi32>
// CHECK-NEXT:  vector.bitcast %[[L]] : vector<128xi32> to vector<256xbf16>
func.func @bf16_rows(%base: i32, %v: vector<256xbf16>) -> vector<256xbf16> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !acc
  tcgen05.tile_store %v, %buf [0, 0] [128, 256] : vector<256xbf16>, !acc
  %r = tcgen05.tile_load %buf [0, 0] [128, 256] : !acc -> vector<256xbf16>
  func.return %r : vector<256xbf16>
}

// Three f16 columns: packed x1 for columns 0-1, then unpacked x1 for column 2, whose element
// sits in the low half of its 32-bit cell (the high half is written as zero, read and dropped).
!odd = !tcgen05.tmem<128x3xf16, S[(128, 3) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @odd_columns
// CHECK:       %[[A:.*]] = arith.addi %base, %{{.*}} : i32
// CHECK-NEXT:  %[[P:.*]] = vector.shuffle %v, %v [0, 1] : vector<3xf16>, vector<3xf16>
// CHECK-NEXT:  %[[PR:.*]] = vector.bitcast %[[P]] : vector<2xf16> to vector<1xi32>
// CHECK-NEXT:  tcgen05.st %[[PR]], %[[A]] shape_32x32b x1 unpack : vector<1xi32>
// CHECK-NEXT:  %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<3xf16>
// CHECK-NEXT:  %[[U:.*]] = vector.shuffle %v, %[[Z]] [2, 3] : vector<3xf16>, vector<3xf16>
// CHECK-NEXT:  %[[UR:.*]] = vector.bitcast %[[U]] : vector<2xf16> to vector<1xi32>
// CHECK-NEXT:  %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:  %[[A2:.*]] = arith.addi %[[A]], %[[C2]] : i32
// CHECK-NEXT:  tcgen05.st %[[UR]], %[[A2]] shape_32x32b x1 : vector<1xi32>
// CHECK:       %[[L0:.*]] = tcgen05.ld %{{.*}} shape_32x32b x1 pack : vector<1xi32>
// CHECK-NEXT:  %[[H0:.*]] = vector.bitcast %[[L0]] : vector<1xi32> to vector<2xf16>
// CHECK:       %[[L1:.*]] = tcgen05.ld %{{.*}} shape_32x32b x1 : vector<1xi32>
// CHECK-NEXT:  %[[H1:.*]] = vector.bitcast %[[L1]] : vector<1xi32> to vector<2xf16>
// CHECK-NEXT:  vector.shuffle %[[H0]], %[[H1]] [0, 1, 2] : vector<2xf16>, vector<2xf16>
func.func @odd_columns(%base: i32, %v: vector<3xf16>) -> vector<3xf16> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !odd
  tcgen05.tile_store %v, %buf [0, 0] [128, 3] : vector<3xf16>, !odd
  %r = tcgen05.tile_load %buf [0, 0] [128, 3] : !odd -> vector<3xf16>
  func.return %r : vector<3xf16>
}

// i16 in the M=64 layout with the 16x128b fragment: packed 16x128b (8 columns of halves per x1).
!m64 = !tcgen05.tmem<64x32xi16, S[(4, 16, 32) : (32@TLane, 1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @i16_m64
// CHECK:       tcgen05.ld %{{.*}} shape_16x128b x4 pack : vector<8xi32>
// CHECK-NOT:   tcgen05.ld
func.func @i16_m64(%base: i32) -> vector<16xi16> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !m64
  %r = tcgen05.tile_load %buf [0, 0] [64, 32] frag <S[(4, 2, 8, 4, 4, 2) : (1@warpid, 2, 4@laneid, 4, 1@laneid, 1)]> : !m64 -> vector<16xi16>
  func.return %r : vector<16xi16>
}
