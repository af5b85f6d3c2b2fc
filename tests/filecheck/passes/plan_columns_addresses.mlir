// tmem-plan-columns places buffers that tcgen05.mma and tcgen05.cp take by address
// (tcgen05.buffer_address): a block-scaled tile whose accumulator and scale factors are all
// declared buffers. Each address becomes the buffer's planned base + (lane << 16) + column at its
// user; the scale factors, last used by the asynchronous mma, stay live (their columns unshared,
// the dealloc not earlier) until the mbarrier wait that observes the mma's commit.
// RUN: tmem-opt %s --split-input-file -p tmem-plan-columns | filecheck %s
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline > /dev/null
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline,convert-tcgen05-to-nvvm | iree-opt --split-input-file > /dev/null
// REQUIRES: ptxas
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline -t ptx --ptxas-check > /dev/null

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
!sfa = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
!sfb = !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// CHECK-LABEL: func.func @scaled
func.func @scaled(%da: i64, %db: i64, %dsfa: i64, %dsfb: i64, %dsfb2: i64, %out: memref<32768xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c5_i32 = arith.constant 5 : i32
  %c256 = arith.constant 256 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  // CHECK: tcgen05.alloc %{{.*}}, 512 : !llvm.ptr<3>
  // CHECK: %[[BASE:.*]] = llvm.load
  // CHECK-DAG: %acc = tcgen05.decl_buffer %[[BASE]] {tmem.planned_columns = "columns [0, 256), lane offset 0"}
  // CHECK-DAG: %sfa = tcgen05.decl_buffer %[[SFA:[^ ]+]] {tmem.planned_columns = "columns [264, 268), lane offset 0"}
  // CHECK-DAG: %sfb = tcgen05.decl_buffer %[[SFB:[^ ]+]] {tmem.planned_columns = "columns [256, 264), lane offset 0"}
  %acc = tcgen05.buffer : !acc
  %sfa = tcgen05.buffer : !sfa
  %sfb = tcgen05.buffer : !sfb
  // CHECK-NOT: tcgen05.buffer_address
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %t_sfa = tcgen05.buffer_address %sfa [0, 0] : !sfa
  %t_sfb = tcgen05.buffer_address %sfb [0, 0] : !sfb
  %t_sfb2 = tcgen05.buffer_address %sfb [0, 4] : !sfb
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %idesc = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0
  scf.if %is_warp0 {
    %elected = tcgen05.elect_sync
    scf.if %elected {
      // CHECK: tcgen05.cp %[[SFA]], %dsfa shape_32x128b multicast warpx4
      // CHECK: tcgen05.cp %[[SFB]], %dsfb shape_32x128b multicast warpx4
      // CHECK: %[[FOUR:.*]] = arith.constant 4 : i32
      // CHECK: %[[SFB2:.*]] = arith.addi %[[SFB]], %[[FOUR]] : i32
      // CHECK: tcgen05.cp %[[SFB2]], %dsfb2 shape_32x128b multicast warpx4
      // CHECK: tcgen05.mma mxf8f6f4 %[[BASE]], %da, %db, %idesc, %false scale_a %[[SFA]] scale_b %[[SFB]] scale_vec x1 : i64
      tcgen05.cp %t_sfa, %dsfa shape_32x128b multicast warpx4
      tcgen05.cp %t_sfb, %dsfb shape_32x128b multicast warpx4
      tcgen05.cp %t_sfb2, %dsfb2 shape_32x128b multicast warpx4
      %false = arith.constant false
      tcgen05.mma mxf8f6f4 %d, %da, %db, %idesc, %false scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
      tcgen05.commit %bar : !llvm.ptr<3>
    }
  }
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  // CHECK: tcgen05.tile_load %acc
  // CHECK: tcgen05.dealloc %[[BASE]], 512
  %tile = tcgen05.tile_load %acc [0, 0] [128, 256] : !acc -> vector<256xf32>
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c256 : index
  vector.store %tile, %out[%first] : memref<32768xf32>, vector<256xf32>
  func.return
}

// -----

// The scale factors die at the wait, so a buffer first used after it takes their columns; the
// accumulator, read after that buffer, keeps its own.
!acc = !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
!sf = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
!late = !tcgen05.tmem<128x4xf32, S[(128, 4) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// CHECK-LABEL: func.func @reuse_after_the_wait
func.func @reuse_after_the_wait(%da: i64, %db: i64, %dsf: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %v = arith.constant dense<1.0> : vector<4xf32>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  // CHECK: tcgen05.alloc %{{.*}}, 256 : !llvm.ptr<3>
  // CHECK-DAG: %acc = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [0, 128), lane offset 0"}
  // CHECK-DAG: %sfa = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [128, 132), lane offset 0"}
  // CHECK-DAG: %sfb = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [132, 136), lane offset 0"}
  // CHECK-DAG: %late = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [1{{28|32}}, 13{{2|6}}), lane offset 0"}
  %acc = tcgen05.buffer : !acc
  %sfa = tcgen05.buffer : !sf
  %sfb = tcgen05.buffer : !sf
  %late = tcgen05.buffer : !late
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %t_sfa = tcgen05.buffer_address %sfa [0, 0] : !sf
  %t_sfb = tcgen05.buffer_address %sfb [0, 0] : !sf
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %idesc = tcgen05.instr_desc mxf8f6f4 m 128 n 128 a e4m3 b e4m3 scale ue8m0
  scf.if %is_thread0 {
    tcgen05.cp %t_sfa, %dsf shape_32x128b multicast warpx4
    tcgen05.cp %t_sfb, %dsf shape_32x128b multicast warpx4
    %false = arith.constant false
    tcgen05.mma mxf8f6f4 %d, %da, %db, %idesc, %false scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
    tcgen05.commit %bar : !llvm.ptr<3>
  }
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  tcgen05.tile_store %v, %late [0, 0] [128, 4] : vector<4xf32>, !late
  %back = tcgen05.tile_load %late [0, 0] [128, 4] : !late -> vector<4xf32>
  %tile = tcgen05.tile_load %acc [0, 0] [128, 128] : !acc -> vector<128xf32>
  func.return
}

// -----

// A buffer used while the mma may still read the scale factors (after the commit, before the
// wait) does not take their columns: they are live until the wait.
!acc = !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
!sf = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
!mid = !tcgen05.tmem<128x8xf32, S[(128, 8) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// CHECK-LABEL: func.func @in_flight_scale_factors_keep_their_columns
func.func @in_flight_scale_factors_keep_their_columns(%da: i64, %db: i64, %dsf: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %v = arith.constant dense<1.0> : vector<8xf32>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %is_thread0 = arith.cmpi eq, %tid, %c0_i32 : i32
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  // CHECK-DAG: %acc = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [0, 128), lane offset 0"}
  // CHECK-DAG: %sfa = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [1{{36|40}}, 14{{0|4}}), lane offset 0"}
  // CHECK-DAG: %sfb = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [1{{36|40}}, 14{{0|4}}), lane offset 0"}
  // CHECK-DAG: %mid = tcgen05.decl_buffer {{.*}} {tmem.planned_columns = "columns [128, 136), lane offset 0"}
  %acc = tcgen05.buffer : !acc
  %sfa = tcgen05.buffer : !sf
  %sfb = tcgen05.buffer : !sf
  %mid = tcgen05.buffer : !mid
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %t_sfa = tcgen05.buffer_address %sfa [0, 0] : !sf
  %t_sfb = tcgen05.buffer_address %sfb [0, 0] : !sf
  scf.if %is_thread0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %idesc = tcgen05.instr_desc mxf8f6f4 m 128 n 128 a e4m3 b e4m3 scale ue8m0
  scf.if %is_thread0 {
    tcgen05.cp %t_sfa, %dsf shape_32x128b multicast warpx4
    tcgen05.cp %t_sfb, %dsf shape_32x128b multicast warpx4
    %false = arith.constant false
    tcgen05.mma mxf8f6f4 %d, %da, %db, %idesc, %false scale_a %t_sfa scale_b %t_sfb scale_vec x1 : i64
    tcgen05.commit %bar : !llvm.ptr<3>
  }
  tcgen05.tile_store %v, %mid [0, 0] [128, 8] : vector<8xf32>, !mid
  %back = tcgen05.tile_load %mid [0, 0] [128, 8] : !mid -> vector<8xf32>
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  tcgen05.fence after_thread_sync
  %tile = tcgen05.tile_load %acc [0, 0] [128, 128] : !acc -> vector<128xf32>
  func.return
}

// -----

// A 2-stage ring in one buffer, addressed at run time: stage t % 2 is columns 16 (t % 2) .. +15,
// each warp adds its lane quarter ((32 (w % 4)) << 16). The planner follows the arith.addi
// chain to the st/ld, bounds both offsets (lanes 0-127, columns 0-31: inside the ring, whole),
// rewrites only the buffer_address, and gives the buffer live across the loop its own columns.
!ring = !tcgen05.tmem<128x32xi32, S[(128, 32) : (1@TLane, 1@TCol)]>
!keep = !tcgen05.tmem<128x16xi32, S[(128, 16) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @ring_by_offset
// CHECK: tcgen05.alloc %{{.*}}, 64 : !llvm.ptr<3>
// CHECK-DAG: %ring = tcgen05.decl_buffer %[[BASE:[^ ]+]] {tmem.planned_columns = "columns [0, 32), lane offset 0"}
// CHECK-DAG: %keep = tcgen05.decl_buffer %{{.*}} {tmem.planned_columns = "columns [32, 48), lane offset 0"}
// CHECK: %lane_base = arith.addi %[[BASE]], %lane_bits : i32
// CHECK: scf.for
// CHECK: %at = arith.addi %lane_base, %col : i32
// CHECK: tcgen05.st %v, %at shape_32x32b x16
func.func @ring_by_offset(%out: memref<2048xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_bits = arith.shli %quarter, %c21_i32 : i32
  %ring = tcgen05.buffer : !ring
  %keep = tcgen05.buffer : !keep
  %v = vector.broadcast %tid : i32 to vector<16xi32>
  tcgen05.tile_store %v, %keep [0, 0] [128, 16] : vector<16xi32>, !keep
  %d = tcgen05.buffer_address %ring [0, 0] : !ring
  %lane_base = arith.addi %d, %lane_bits : i32
  scf.for %t = %c0 to %c6 step %c1 {
    %t32 = arith.index_cast %t : index to i32
    %s = arith.remui %t32, %c2_i32 : i32
    %col = arith.muli %s, %c16_i32 : i32
    %at = arith.addi %lane_base, %col : i32
    tcgen05.st %v, %at shape_32x32b x16 : vector<16xi32>
    %back = tcgen05.ld %at shape_32x32b x16 : vector<16xi32>
  }
  %kept = tcgen05.tile_load %keep [0, 0] [128, 16] : !keep -> vector<16xi32>
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c16 : index
  vector.store %kept, %out[%first] : memref<2048xi32>, vector<16xi32>
  func.return
}
