// The register budget per message: default maxnreg / 2 = 128; regs-per-message overrides it.
// RUN: tmem-opt -p 'tmem-assign-lanes{regs-per-message=32}' %s | filecheck %s --check-prefix=B32
// RUN: tmem-opt -p 'tmem-assign-lanes{maxnreg=64}' %s | filecheck %s --check-prefix=B32
// RUN: tmem-opt -p 'tmem-assign-lanes{regs-per-message=96}' %s | filecheck %s --check-prefix=B96
// RUN: tmem-opt -p 'tmem-assign-lanes{regs-per-message=4}' %s | filecheck %s --check-prefix=M64

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

// 256 columns in messages of at most 32 registers: eight 32x32b.x32, 32 columns apart.
// B32-LABEL: func.func @readout
// B32:       %[[A:.*]] = arith.addi %base, %{{.*}} : i32
// B32-NEXT:  tcgen05.ld %[[A]] shape_32x32b x32
// B32-COUNT-7: tcgen05.ld %{{.*}} shape_32x32b x32 : vector<32xi32>
// B32-NOT:   tcgen05.ld
// 96 is not a power of two: x64 is the largest num within it, so four x64.
// B96-LABEL: func.func @readout
// B96-COUNT-4: tcgen05.ld %{{.*}} shape_32x32b x64 : vector<64xi32>
// B96-NOT:   tcgen05.ld
func.func @readout(%base: i32) -> vector<256xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !acc
  %r = tcgen05.tile_load %buf [0, 0] [128, 256] : !acc -> vector<256xf32>
  func.return %r : vector<256xf32>
}

// 16x256b moves 4 registers per x1: a budget of 4 allows only x1, so 64 columns take 8 messages.
!m64 = !tcgen05.tmem<64x64xf32, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
// B32-LABEL: func.func @m64
// B96-LABEL: func.func @m64
// M64-LABEL: func.func @m64
// M64-COUNT-8: tcgen05.ld %{{.*}} shape_16x256b x1 : vector<4xi32>
// M64-NOT:   tcgen05.ld
func.func @m64(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !m64
  %r = tcgen05.tile_load %buf [0, 0] [64, 64] frag <S[(4, 2, 8, 8, 4, 2) : (1@warpid, 2, 4@laneid, 4, 1@laneid, 1)]> : !m64 -> vector<32xf32>
  func.return %r : vector<32xf32>
}
