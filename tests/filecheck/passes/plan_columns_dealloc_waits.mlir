// The waits tmem-plan-columns writes for the dealloc (rule 4: no tcgen05.ld/st outstanding):
// each goes right after the top-level op holding the last access of its kind, and none when the
// kernel already waits there. A store loop read back later gets one wait::st, between the loops,
// which also serves the read-back (rule 2): tmem-insert-waits then adds nothing. The kernel's own
// wait::ld right after its last use stays the only one, and the dealloc follows it.
// RUN: tmem-opt %s --split-input-file -p tmem-plan-columns | filecheck %s
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline | filecheck %s --check-prefix=PIPE
// REQUIRES: ptxas
// RUN: tmem-opt %s --split-input-file -p tmem-pipeline -t ptx --ptxas-check > /dev/null

!tile = !tcgen05.tmem<128x64xi32, S[(128, 64) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @store_loop_then_read_back
// CHECK: scf.for
// CHECK: tcgen05.st
// CHECK: }
// CHECK-NEXT: tcgen05.wait store {tmem.rule = "rule 4 (dealloc)"}
// CHECK: tcgen05.ld
// CHECK: }
// CHECK-NEXT: tcgen05.wait load {tmem.rule = "rule 4 (dealloc)"}
// CHECK-NEXT: tcgen05.fence before_thread_sync
// CHECK-NOT: tcgen05.wait
// CHECK: tcgen05.dealloc
// PIPE-LABEL: func.func @store_loop_then_read_back
// PIPE-COUNT-2: tcgen05.wait
// PIPE-NOT: tcgen05.wait
// PIPE: func.return
func.func @store_loop_then_read_back(%out: memref<4096xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %c32_i32 = arith.constant 32 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %tile = tcgen05.buffer : !tile
  %base = tcgen05.buffer_address %tile [0, 0] : !tile
  %taddr = arith.addi %base, %lane_base : i32
  %v = vector.broadcast %tid : i32 to vector<32xi32>
  scf.for %k = %c0 to %c2 step %c1 {
    %k_i32 = arith.index_cast %k : index to i32
    %col = arith.muli %k_i32, %c32_i32 : i32
    %at = arith.addi %taddr, %col : i32
    tcgen05.st %v, %at shape_32x32b x32 : vector<32xi32>
  }
  %zero = arith.constant dense<0> : vector<32xi32>
  %sum = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (vector<32xi32>) {
    %k_i32 = arith.index_cast %k : index to i32
    %col = arith.muli %k_i32, %c32_i32 : i32
    %at = arith.addi %taddr, %col : i32
    %part = tcgen05.ld %at shape_32x32b x32 : vector<32xi32>
    %next = arith.addi %acc, %part : vector<32xi32>
    scf.yield %next : vector<32xi32>
  }
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  vector.store %sum, %out[%first] : memref<4096xi32>, vector<32xi32>
  func.return
}

// -----

!acc = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
// CHECK-LABEL: func.func @own_wait_after_the_last_use
// CHECK: tcgen05.tile_load
// CHECK-NEXT: tcgen05.wait load
// CHECK-NOT: tmem.rule
// CHECK-NEXT: tcgen05.fence before_thread_sync
// CHECK: tcgen05.dealloc
// CHECK-NOT: tcgen05.wait
// CHECK: vector.store
func.func @own_wait_after_the_last_use(%in: memref<4096xf32>, %out: memref<4096xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %row = arith.index_cast %tid : i32 to index
  %first = arith.muli %row, %c32 : index
  %acc = tcgen05.buffer : !acc
  %mine = vector.load %in[%first] : memref<4096xf32>, vector<32xf32>
  tcgen05.tile_store %mine, %acc [0, 0] [128, 32] : vector<32xf32>, !acc
  tcgen05.wait store
  %back = tcgen05.tile_load %acc [0, 0] [128, 32] : !acc -> vector<32xf32>
  tcgen05.wait load
  vector.store %back, %out[%first] : memref<4096xf32>, vector<32xf32>
  func.return
}
