// Each layout kind's footprint: full 128-lane tiles take their span(TCol) columns; 16-lane (M=64)
// tiles may sit at lane 0 or 16 of each quarter and so share columns; a layout offset on TCol
// counts in its span; 16-bit elements take a 32-bit cell each. tmem-pipeline then lowers, waits
// and verifies the planned kernel, and the PTX assembles.
// RUN: tmem-opt %s --split-input-file -p tmem-plan-columns | filecheck %s
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline > /dev/null
// REQUIRES: ptxas
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline -t ptx --ptxas-check > /dev/null

!m64 = !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @two_m64_tiles
// CHECK: tcgen05.alloc %{{.*}}, 64 : !llvm.ptr<3>
// CHECK: %x = tcgen05.decl_buffer %tmem_base {tmem.planned_columns = "columns [0, 64), lane offset 0"}
// CHECK: %[[OFF:.*]] = arith.constant 1048576 : i32
// CHECK: %[[ADDR:.*]] = arith.addi %tmem_base, %[[OFF]] : i32
// CHECK: %y = tcgen05.decl_buffer %[[ADDR]] {tmem.planned_columns = "columns [0, 64), lane offset 16"}
func.func @two_m64_tiles(%in: memref<4096xf16>, %out: memref<4096xf16>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  %x = tcgen05.buffer : !m64
  %y = tcgen05.buffer : !m64
  %v = vector.load %in[%first] : memref<4096xf16>, vector<32xf16>
  tcgen05.tile_store %v, %x [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !m64
  tcgen05.tile_store %v, %y [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !m64
  %a = tcgen05.tile_load %x [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : !m64 -> vector<32xf16>
  %b = tcgen05.tile_load %y [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : !m64 -> vector<32xf16>
  vector.store %a, %out[%first] : memref<4096xf16>, vector<32xf16>
  vector.store %b, %out[%first] : memref<4096xf16>, vector<32xf16>
  func.return
}

// -----

!m64 = !tcgen05.tmem<64x64xf16, S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]>
!full = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
// A 128-lane tile live with two M=64 tiles: the two share columns 0-63 in lane halves, the
// full tile takes its own 32 columns beside them (96 columns, a 128-column allocation).
// CHECK-LABEL: func.func @mixed
// CHECK: tcgen05.alloc %{{.*}}, 128 : !llvm.ptr<3>
// CHECK: %x = tcgen05.decl_buffer {{.*}}"columns [0, 64), lane offset 0"
// CHECK: %y = tcgen05.decl_buffer {{.*}}"columns [0, 64), lane offset 16"
// CHECK: %z = tcgen05.decl_buffer {{.*}}"columns [64, 96), lane offset 0"
func.func @mixed(%in: memref<4096xf16>, %s: f32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %w = vector.broadcast %s : f32 to vector<32xf32>
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  %x = tcgen05.buffer : !m64
  %y = tcgen05.buffer : !m64
  %z = tcgen05.buffer : !full
  %v = vector.load %in[%first] : memref<4096xf16>, vector<32xf16>
  tcgen05.tile_store %v, %x [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !m64
  tcgen05.tile_store %v, %y [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : vector<32xf16>, !m64
  tcgen05.tile_store %w, %z [0, 0] [128, 32] : vector<32xf32>, !full
  %a = tcgen05.tile_load %x [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : !m64 -> vector<32xf16>
  %b = tcgen05.tile_load %y [0, 0] [64, 64] frag <S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]> : !m64 -> vector<32xf16>
  %c = tcgen05.tile_load %z [0, 0] [128, 32] : !full -> vector<32xf32>
  func.return
}

// -----

// A layout offset by 16 columns spans 48 columns; two such tiles live together take 96.
!shifted = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)] + 16@TCol>
// CHECK-LABEL: func.func @offset_layout
// CHECK: tcgen05.alloc %{{.*}}, 128 : !llvm.ptr<3>
// CHECK: %a = tcgen05.decl_buffer {{.*}}"columns [0, 48), lane offset 0"
// CHECK: %b = tcgen05.decl_buffer {{.*}}"columns [48, 96), lane offset 0"
func.func @offset_layout(%s: f32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %v = vector.broadcast %s : f32 to vector<32xf32>
  %a = tcgen05.buffer : !shifted
  %b = tcgen05.buffer : !shifted
  tcgen05.tile_store %v, %a [0, 0] [128, 32] : vector<32xf32>, !shifted
  tcgen05.tile_store %v, %b [0, 0] [128, 32] : vector<32xf32>, !shifted
  %x = tcgen05.tile_load %a [0, 0] [128, 32] : !shifted -> vector<32xf32>
  %y = tcgen05.tile_load %b [0, 0] [128, 32] : !shifted -> vector<32xf32>
  func.return
}

// -----

// 16-bit elements in a 128-lane tile take one 32-bit cell each: 128x64 f16 is 64 columns.
!h = !tcgen05.tmem<128x64xf16, S[(128, 64) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @f16_tile
// CHECK: tcgen05.alloc %{{.*}}, 64 : !llvm.ptr<3>
// CHECK: %a = tcgen05.decl_buffer {{.*}}"columns [0, 64), lane offset 0"
func.func @f16_tile(%s: f16) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %v = vector.broadcast %s : f16 to vector<64xf16>
  %a = tcgen05.buffer : !h
  tcgen05.tile_store %v, %a [0, 0] [128, 64] : vector<64xf16>, !h
  %x = tcgen05.tile_load %a [0, 0] [128, 64] : !h -> vector<64xf16>
  func.return
}
