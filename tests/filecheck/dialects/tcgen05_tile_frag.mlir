// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Tile ops with an explicit register fragment layout over warpid, laneid and m.

!m64 = !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
!acc = !tcgen05.tmem<128x64xi32, S[(128, 64) : (1@TLane, 1@TCol)]>

// CHECK-LABEL: func.func @frag
func.func @frag(%a: i32, %v: vector<32xf16>) {
  %b = tcgen05.decl_buffer %a : !m64
  // The 16x256b fragment of the M=64 layout (see examples/m64_f16.mlir).
  // CHECK: tcgen05.tile_store %v, %{{.*}} [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
  // GENERIC: "tcgen05.tile_store"(%v, %{{.*}}) <{offsets = array<i64: 0, 0>, sizes = array<i64: 64, 64>, frag = #tcgen05.layout<S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]>}>
  tcgen05.tile_store %v, %b [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !m64
  // CHECK-NEXT: tcgen05.tile_load %{{.*}} [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : {{.*}} -> vector<32xf16>
  %back = tcgen05.tile_load %b [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : !m64 -> vector<32xf16>
  %c = tcgen05.decl_buffer %a : !acc
  // A 32-row region read by one warp: lane i holds row i.
  // CHECK: tcgen05.tile_load %{{.*}} [32, 8] [32, 8] frag <S[(32, 8) : (1@laneid, 1)]> : {{.*}} -> vector<8xi32>
  %w = tcgen05.tile_load %c [32, 8] [32, 8] frag <S[(32, 8) : (1@laneid, 1)]> : !acc -> vector<8xi32>
  // Without an m axis each thread holds one element.
  // CHECK-NEXT: tcgen05.tile_load %{{.*}} [0, 0] [128, 1] frag <S[(4, 32) : (1@warpid, 1@laneid)]> : {{.*}} -> vector<1xi32>
  %col = tcgen05.tile_load %c [0, 0] [128, 1] frag <S[(4, 32) : (1@warpid, 1@laneid)]> : !acc -> vector<1xi32>
  // A strided register placement: element j of the row goes to register 2j.
  // CHECK: tcgen05.tile_store %{{.*}}, %{{.*}} [0, 0] [128, 4] frag <S[(4, 32, 4) : (1@warpid, 1@laneid, 2)]> : vector<7xi32>
  %z = arith.constant dense<0> : vector<7xi32>
  tcgen05.tile_store %z, %c [0, 0] [128, 4] frag <S[(4, 32, 4) : (1@warpid, 1@laneid, 2)]> : vector<7xi32>, !acc
  func.return
}
