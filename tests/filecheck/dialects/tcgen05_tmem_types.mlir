// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// TMEM buffer types as values: element types of 16 and 32 bits, ranks 0 to 3.

// CHECK:      func.func @types(
// CHECK-SAME: %f32: !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>,
// CHECK-SAME: %i32: !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>,
// CHECK-SAME: %f16: !tcgen05.tmem<128x64xf16, S[(128, 64) : (1@TLane, 1@TCol)]>,
// CHECK-SAME: %bf16: !tcgen05.tmem<128x64xbf16, S[(128, 64) : (1@TLane, 1@TCol)]>,
// CHECK-SAME: %i16: !tcgen05.tmem<16xi16, S[16 : 1@TCol]>,
// CHECK-SAME: %r3: !tcgen05.tmem<2x64x8xf32, S[(2, 64, 8) : (64@TLane, 1@TLane, 1@TCol)]>,
// CHECK-SAME: %lane_only: !tcgen05.tmem<128xf32, S[128 : 1@TLane]>,
// CHECK-SAME: %cell: !tcgen05.tmem<f32, S[1 : 1@TCol] + 7@TCol>)
func.func @types(
    %f32: !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>,
    %i32: !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>,
    %f16: !tcgen05.tmem<128x64xf16, S[(128, 64) : (1@TLane, 1@TCol)]>,
    %bf16: !tcgen05.tmem<128x64xbf16, S[(128, 64) : (1@TLane, 1@TCol)]>,
    %i16: !tcgen05.tmem<16xi16, S[16 : 1@TCol]>,
    %r3: !tcgen05.tmem<2x64x8xf32, S[(2, 64, 8) : (64@TLane, 1@TLane, 1@TCol)]>,
    %lane_only: !tcgen05.tmem<128xf32, S[128 : 1@TLane]>,
    %cell: !tcgen05.tmem<f32, S[1 : 1@TCol] + 7@TCol>) {
  func.return
}
