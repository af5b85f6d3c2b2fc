// tmem-plan-columns reuses the columns of dead buffers; a buffer used in a loop lives across the
// whole loop, and so does each stage of a ring selected by i % N.
// RUN: tmem-opt %s --split-input-file -p tmem-plan-columns | filecheck %s
// The planned kernels go through lane assignment, wait insertion and tmem-verify cleanly.
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline > /dev/null
// RUN: tmem-opt %s --split-input-file -p "tmem-pipeline{multi-allocation=true}" > /dev/null

!t = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
// Two 256-column buffers one after the other share columns 0-255: 256 columns, not 512.
// CHECK-LABEL: func.func @sequential
// CHECK: tcgen05.alloc %{{.*}}, 256 : !llvm.ptr<3>
// CHECK-NEXT: tcgen05.relinquish_alloc_permit
// CHECK: %a = tcgen05.decl_buffer %tmem_base {tmem.planned_columns = "columns [0, 256), lane offset 0"}
// CHECK: %b = tcgen05.decl_buffer %tmem_base {tmem.planned_columns = "columns [0, 256), lane offset 0"}
// CHECK: tcgen05.tile_load %b
// CHECK-NEXT: tcgen05.wait load {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT: tcgen05.fence before_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT: nvvm.barrier
// CHECK-NEXT: tcgen05.fence after_thread_sync {tmem.rule = "rule 3 (handoff)"}
// CHECK-NEXT: scf.if %tmem_is_warp0 {
// CHECK-NEXT: tcgen05.dealloc %tmem_base, 256
func.func @sequential(%v: vector<256xf32>) -> (vector<256xf32>, vector<256xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %a = tcgen05.buffer : !t
  %b = tcgen05.buffer : !t
  tcgen05.tile_store %v, %a [0, 0] [128, 256] : vector<256xf32>, !t
  %x = tcgen05.tile_load %a [0, 0] [128, 256] : !t -> vector<256xf32>
  tcgen05.tile_store %x, %b [0, 0] [128, 256] : vector<256xf32>, !t
  %y = tcgen05.tile_load %b [0, 0] [128, 256] : !t -> vector<256xf32>
  func.return %x, %y : vector<256xf32>, vector<256xf32>
}

// -----

!t = !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
// The same two uses inside a loop body: each buffer lives across the loop, so they cannot share.
// CHECK-LABEL: func.func @in_a_loop
// CHECK: tcgen05.alloc %{{.*}}, 256 : !llvm.ptr<3>
// CHECK: %a = tcgen05.decl_buffer {{.*}}"columns [0, 128), lane offset 0"
// CHECK: %b = tcgen05.decl_buffer {{.*}}"columns [128, 256), lane offset 0"
// CHECK: scf.for
// CHECK: tcgen05.dealloc %tmem_base, 256
func.func @in_a_loop(%v: vector<128xf32>, %n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tcgen05.buffer : !t
  %b = tcgen05.buffer : !t
  scf.for %i = %c0 to %n step %c1 {
    tcgen05.tile_store %v, %a [0, 0] [128, 128] : vector<128xf32>, !t
    %x = tcgen05.tile_load %a [0, 0] [128, 128] : !t -> vector<128xf32>
    tcgen05.tile_store %x, %b [0, 0] [128, 128] : vector<128xf32>, !t
    %y = tcgen05.tile_load %b [0, 0] [128, 128] : !t -> vector<128xf32>
  }
  func.return
}

// -----

!t = !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
// A buffer used before a loop and one used only inside it share columns.
// CHECK-LABEL: func.func @before_and_in_a_loop
// CHECK: tcgen05.alloc %{{.*}}, 128 : !llvm.ptr<3>
// CHECK: %a = tcgen05.decl_buffer {{.*}}"columns [0, 128), lane offset 0"
// CHECK: %b = tcgen05.decl_buffer {{.*}}"columns [0, 128), lane offset 0"
func.func @before_and_in_a_loop(%v: vector<128xf32>, %n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tcgen05.buffer : !t
  %b = tcgen05.buffer : !t
  tcgen05.tile_store %v, %a [0, 0] [128, 128] : vector<128xf32>, !t
  %x = tcgen05.tile_load %a [0, 0] [128, 128] : !t -> vector<128xf32>
  scf.for %i = %c0 to %n step %c1 {
    tcgen05.tile_store %x, %b [0, 0] [128, 128] : vector<128xf32>, !t
    %y = tcgen05.tile_load %b [0, 0] [128, 128] : !t -> vector<128xf32>
  }
  func.return
}

// -----

!t = !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]>
// A two-stage ring indexed by i % 2: each stage is used in the loop, so the ring lives as a whole
// (256 columns) although each iteration touches one stage.
// CHECK-LABEL: func.func @ring
// CHECK: tcgen05.alloc %{{.*}}, 256 : !llvm.ptr<3>
// CHECK: %s0 = tcgen05.decl_buffer {{.*}}"columns [0, 128), lane offset 0"
// CHECK: %s1 = tcgen05.decl_buffer {{.*}}"columns [128, 256), lane offset 0"
func.func @ring(%v: vector<128xf32>, %n: index) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s0 = tcgen05.buffer : !t
  %s1 = tcgen05.buffer : !t
  scf.for %i = %c0 to %n step %c1 {
    %stage = arith.remui %i, %c2 : index
    scf.index_switch %stage
    case 0 {
      tcgen05.tile_store %v, %s0 [0, 0] [128, 128] : vector<128xf32>, !t
      %y = tcgen05.tile_load %s0 [0, 0] [128, 128] : !t -> vector<128xf32>
      scf.yield
    }
    default {
      tcgen05.tile_store %v, %s1 [0, 0] [128, 128] : vector<128xf32>, !t
      %y = tcgen05.tile_load %s1 [0, 0] [128, 128] : !t -> vector<128xf32>
      scf.yield
    }
  }
  func.return
}

// -----

!t = !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
// Buffers used only on the two sides of a branch are never live together.
// CHECK-LABEL: func.func @branches
// CHECK: tcgen05.alloc %{{.*}}, 64 : !llvm.ptr<3>
func.func @branches(%v: vector<64xf32>, %c: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %a = tcgen05.buffer : !t
  %b = tcgen05.buffer : !t
  scf.if %c {
    tcgen05.tile_store %v, %a [0, 0] [128, 64] : vector<64xf32>, !t
    %x = tcgen05.tile_load %a [0, 0] [128, 64] : !t -> vector<64xf32>
  } else {
    tcgen05.tile_store %v, %b [0, 0] [128, 64] : vector<64xf32>, !t
    %y = tcgen05.tile_load %b [0, 0] [128, 64] : !t -> vector<64xf32>
  }
  func.return
}

// -----

!t = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
// Three 32-column buffers live together, then one: 96 columns round up to a 128-column allocation.
// CHECK-LABEL: func.func @rounds_up
// CHECK: tcgen05.alloc %{{.*}}, 128 : !llvm.ptr<3>
// CHECK: %a = tcgen05.decl_buffer {{.*}}"columns [0, 32), lane offset 0"
// CHECK: %b = tcgen05.decl_buffer {{.*}}"columns [32, 64), lane offset 0"
// CHECK: %c = tcgen05.decl_buffer {{.*}}"columns [64, 96), lane offset 0"
func.func @rounds_up(%v: vector<32xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %a = tcgen05.buffer : !t
  %b = tcgen05.buffer : !t
  %c = tcgen05.buffer : !t
  tcgen05.tile_store %v, %a [0, 0] [128, 32] : vector<32xf32>, !t
  tcgen05.tile_store %v, %b [0, 0] [128, 32] : vector<32xf32>, !t
  tcgen05.tile_store %v, %c [0, 0] [128, 32] : vector<32xf32>, !t
  %x = tcgen05.tile_load %a [0, 0] [128, 32] : !t -> vector<32xf32>
  %y = tcgen05.tile_load %b [0, 0] [128, 32] : !t -> vector<32xf32>
  %z = tcgen05.tile_load %c [0, 0] [128, 32] : !t -> vector<32xf32>
  func.return
}
