// The alignment the PTX ISA asks of a TMEM address, as tmem-plan-columns respects it. It states
// one: 9.7.16.9.3, "The lane of the address operand taddr [of tcgen05.shift] must be aligned to
// 32" (isa.SHIFT_LANE_ALIGNMENT); no column alignment for any use (isa.TMEM_COLUMN_ALIGNMENT),
// so the scale factors of a block-scaled mma pack at any column next to the accumulator.
// RUN: tmem-opt %s --split-input-file --verify-diagnostics -p tmem-plan-columns | filecheck %s

!acc = !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// A shift of lanes 32-63 (taddr lane 32): aligned, planned; the address is base + (32 << 16).
// CHECK-LABEL: func.func @shift_at_lane_32
// CHECK: %acc = tcgen05.decl_buffer %tmem_base {tmem.planned_columns = "columns [0, 8), lane offset 0"}
// CHECK: %[[OFF:.*]] = arith.constant 2097152 : i32
// CHECK: %[[ADDR:.*]] = arith.addi %tmem_base, %[[OFF]] : i32
// CHECK: tcgen05.shift %[[ADDR]]
func.func @shift_at_lane_32(%v: vector<8xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  %acc = tcgen05.buffer : !acc
  tcgen05.tile_store %v, %acc [0, 0] [128, 8] : vector<8xi32>, !acc
  %d = tcgen05.buffer_address %acc [32, 0] : !acc
  tcgen05.shift %d
  tcgen05.commit %bar : !llvm.ptr<3>
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  %back = tcgen05.tile_load %acc [0, 0] [128, 8] : !acc -> vector<8xi32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// Lane 16 of the buffer is a cell of it (the verifier accepts the address), but no placement
// puts it on a multiple of 32: a 128-lane buffer starts at lane 0.
func.func @shift_at_lane_16() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  // expected-note@+1 {{the buffer is declared here}}
  %acc = tcgen05.buffer : !acc
  %d = tcgen05.buffer_address %acc [16, 0] : !acc
  // expected-error@+1 {{this use needs a TMEM lane aligned to 32, but it takes lane 16 of the buffer, which starts at lane 0 of a quarter}}
  tcgen05.shift %d
  tcgen05.commit %bar : !llvm.ptr<3>
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
!sfa = !tcgen05.tmem<128x4xi32, S[(128, 4) : (1@TLane, 1@TCol)]>
!sfb = !tcgen05.tmem<128x8xi32, S[(128, 8) : (1@TLane, 1@TCol)]>
llvm.mlir.global internal @done() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// Scale factors take no column alignment and no lane offset: both pack right after D, in
// columns 256-267 from lane 0 (all four 32-lane partitions hold the duplicated copy).
// CHECK-LABEL: func.func @scale_factors_pack
// CHECK: tcgen05.alloc %{{.*}}, 512 : !llvm.ptr<3>
// CHECK-DAG: %acc = tcgen05.decl_buffer %tmem_base {tmem.planned_columns = "columns [0, 256), lane offset 0"}
// CHECK-DAG: %sfa = tcgen05.decl_buffer %{{.*}} {tmem.planned_columns = "columns {{\[256, 260\)|\[264, 268\)}}, lane offset 0"}
// CHECK-DAG: %sfb = tcgen05.decl_buffer %{{.*}} {tmem.planned_columns = "columns {{\[256, 264\)|\[260, 268\)}}, lane offset 0"}
func.func @scale_factors_pack(%a: i64, %b: i64, %ds: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %false = arith.constant false
  %bar = llvm.mlir.addressof @done : !llvm.ptr<3>
  %acc = tcgen05.buffer : !acc
  %sfa = tcgen05.buffer : !sfa
  %sfb = tcgen05.buffer : !sfb
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %ta = tcgen05.buffer_address %sfa [0, 0] : !sfa
  %tb = tcgen05.buffer_address %sfb [0, 0] : !sfb
  %tb2 = tcgen05.buffer_address %sfb [0, 4] : !sfb
  tcgen05.cp %ta, %ds shape_32x128b multicast warpx4
  tcgen05.cp %tb, %ds shape_32x128b multicast warpx4
  tcgen05.cp %tb2, %ds shape_32x128b multicast warpx4
  %idesc = tcgen05.instr_desc mxf8f6f4 m 128 n 256 a e4m3 b e4m3 scale ue8m0
  tcgen05.mma mxf8f6f4 %d, %a, %b, %idesc, %false scale_a %ta scale_b %tb scale_vec x1 : i64
  tcgen05.commit %bar : !llvm.ptr<3>
  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>
  %tile = tcgen05.tile_load %acc [0, 0] [128, 256] : !acc -> vector<256xf32>
  func.return
}
