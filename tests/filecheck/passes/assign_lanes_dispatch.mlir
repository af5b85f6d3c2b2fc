// Warps whose messages differ beyond the lane base get warp-uniform dispatch on q = w % 4;
// tile ops inside loops and branches use the lane base computed once at the function entry.
// RUN: tmem-opt -p tmem-assign-lanes %s | filecheck %s
// RUN: tmem-opt -p tmem-assign-lanes %s | tmem-opt | filecheck %s

// A 64-row accumulator in lanes 0-63: warps 0 and 1 load, warps 2 and 3 have no rows.
!half = !tcgen05.tmem<64x32xf32, S[(64, 32) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @two_warps
// CHECK:       %[[Q:.*]] = arith.andi
// CHECK-NEXT:  %{{.*}} = arith.constant 21 : i32
// CHECK-NEXT:  %[[LB:.*]] = arith.shli %[[Q]]
// CHECK:       %[[A:.*]] = arith.addi %base, %[[LB]] : i32
// CHECK-NEXT:  %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:  %[[LOW:.*]] = arith.cmpi ult, %[[Q]], %[[C2]] : i32
// CHECK-NEXT:  %[[R:.*]] = scf.if %[[LOW]] -> (vector<32xf32>) {
// CHECK-NEXT:    %[[L:.*]] = tcgen05.ld %[[A]] shape_32x32b x32 : vector<32xi32>
// CHECK-NEXT:    %[[F:.*]] = vector.bitcast %[[L]] : vector<32xi32> to vector<32xf32>
// CHECK-NEXT:    scf.yield %[[F]] : vector<32xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:    %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<32xf32>
// CHECK-NEXT:    scf.yield %[[Z]] : vector<32xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return %[[R]]
func.func @two_warps(%base: i32) -> vector<32xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !half
  %r = tcgen05.tile_load %buf [0, 0] [64, 32] frag <S[(2, 32, 32) : (1@warpid, 1@laneid, 1)]> : !half -> vector<32xf32>
  func.return %r : vector<32xf32>
}

// Rows 16g..16g+15 in lanes 0-15 of quarters 0 and 2, lanes 16-31 of quarters 1 and 3: the
// 16-lane messages start at lane 0 or 16 of the slab depending on the warp. The store has no
// results, so its branches only yield.
!zigzag = !tcgen05.tmem<64x64xf32, S[(2, 2, 16, 64) : (64@TLane, 48@TLane, 1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @zigzag
// CHECK:       %[[Q:.*]] = arith.andi
// CHECK:       %[[A:.*]] = arith.addi %base, %{{.*}} : i32
// CHECK-NEXT:  %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[E0:.*]] = arith.cmpi eq, %[[Q]], %[[C0]] : i32
// CHECK-NEXT:  %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:  %[[E2:.*]] = arith.cmpi eq, %[[Q]], %[[C2]] : i32
// CHECK-NEXT:  %[[EVEN:.*]] = arith.ori %[[E0]], %[[E2]] : i1
// CHECK-NEXT:  scf.if %[[EVEN]] {
// CHECK:         tcgen05.st %{{.*}}, %[[A]] shape_16x256b x8 : vector<32xi32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:    vector.bitcast %v
// (16 << 16) = 1048576: the messages of quarters 1 and 3 start at lane 16 of their slab.
// CHECK-NEXT:    %[[C16:.*]] = arith.constant 1048576 : i32
// CHECK-NEXT:    %[[A16:.*]] = arith.addi %[[A]], %[[C16]] : i32
// CHECK:         tcgen05.st %{{.*}}, %[[A16]] shape_16x256b x8 : vector<32xi32>
// CHECK-NEXT:  }
func.func @zigzag(%base: i32, %v: vector<32xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !zigzag
  tcgen05.tile_store %v, %buf [0, 0] [64, 64] frag <S[(2, 2, 2, 8, 8, 4, 2) : (2@warpid, 1@warpid, 2, 4@laneid, 4, 1@laneid, 1)]> : vector<32xf32>, !zigzag
  func.return
}

// Tile ops in a loop and a branch: each becomes messages in place; the lane base is hoisted to
// the function entry (computed once), and the decl_buffer outside the loop is gone.
!acc = !tcgen05.tmem<128x64xi32, S[(128, 64) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @loop_and_branch
// CHECK-NEXT:  nvvm.read.ptx.sreg.tid.x
// CHECK-COUNT-6: arith.
// CHECK-NOT:   nvvm.read.ptx.sreg.tid.x
// CHECK:       scf.for
// CHECK-NEXT:    %[[A:.*]] = arith.addi %base, %{{.*}} : i32
// CHECK-NEXT:    tcgen05.st %v, %[[A]] shape_32x32b x64 : vector<64xi32>
// CHECK-NEXT:  }
// CHECK:       scf.if %flag -> (vector<64xi32>) {
// CHECK:         tcgen05.ld %{{.*}} shape_32x32b x64 : vector<64xi32>
// CHECK-NOT:   tcgen05.decl_buffer
func.func @loop_and_branch(%base: i32, %v: vector<64xi32>, %flag: i1) -> vector<64xi32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = tcgen05.decl_buffer %base : !acc
  scf.for %i = %c0 to %c4 step %c1 {
    tcgen05.tile_store %v, %buf [0, 0] [128, 64] : vector<64xi32>, !acc
  }
  %r = scf.if %flag -> (vector<64xi32>) {
    %x = tcgen05.tile_load %buf [0, 0] [128, 64] : !acc -> vector<64xi32>
    scf.yield %x : vector<64xi32>
  } else {
    scf.yield %v : vector<64xi32>
  }
  func.return %r : vector<64xi32>
}
