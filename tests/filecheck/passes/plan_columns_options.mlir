// Options of tmem-plan-columns: max-columns caps an allocation, tcgen05.no_reuse keeps a buffer's
// columns to itself, multi-allocation frees early with non-increasing sizes and one relinquish.
// RUN: tmem-opt %s --split-input-file -p tmem-plan-columns | filecheck %s --check-prefix=ONE
// RUN: tmem-opt %s --split-input-file -p "tmem-plan-columns{multi-allocation=true}" | filecheck %s --check-prefix=MULTI
// RUN: not tmem-opt %s --split-input-file -p "tmem-plan-columns{max-columns=128}" 2>&1 | filecheck %s --check-prefix=CAP
// RUN: not tmem-opt %s --split-input-file -p "tmem-plan-columns{max-columns=16}" 2>&1 | filecheck %s --check-prefix=BAD
// RUN: tmem-opt %s --split-input-file -p "tmem-pipeline{multi-allocation=true}" > /dev/null

!big = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
!small = !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
// A 256-column phase, then a 64-column phase: one allocation of 256, or 256 then 64 (freed early).
// ONE-LABEL: func.func @phases
// ONE: tcgen05.alloc %{{.*}}, 256
// ONE: tcgen05.dealloc %tmem_base, 256
// ONE-NOT: tcgen05.alloc
// ONE: func.return
// MULTI-LABEL: func.func @phases
// MULTI: tcgen05.alloc %tmem_plan_slot{{.*}}, 256
// MULTI-NOT: relinquish
// MULTI: tcgen05.dealloc %tmem_base, 256
// MULTI: tcgen05.alloc %tmem_plan_slot_1{{.*}}, 64
// MULTI-NEXT: tcgen05.relinquish_alloc_permit
// MULTI: tcgen05.dealloc %tmem_base{{.*}}, 64
// BAD: max-columns must be in [32, 512], got 16
// CAP: plan_columns_options.mlir:[[# @LINE + 4]]:3: error: TMEM buffers live here require 256 columns, 128 available
// CAP: plan_columns_options.mlir:[[# @LINE + 2]]:3: note: this buffer requires 256 columns (lanes)
func.func @phases(%v: vector<256xf32>, %w: vector<64xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %a = tcgen05.buffer : !big
  tcgen05.tile_store %v, %a [0, 0] [128, 256] : vector<256xf32>, !big
  %x = tcgen05.tile_load %a [0, 0] [128, 256] : !big -> vector<256xf32>
  %b = tcgen05.buffer : !small
  tcgen05.tile_store %w, %b [0, 0] [128, 64] : vector<64xf32>, !small
  %y = tcgen05.tile_load %b [0, 0] [128, 64] : !small -> vector<64xf32>
  func.return
}

// -----

!big = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
!small = !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
// A small phase before a large one: a second, larger allocation is illegal, so the phases merge.
// MULTI-LABEL: func.func @growing
// MULTI: tcgen05.alloc %{{.*}}, 256
// MULTI-NEXT: tcgen05.relinquish_alloc_permit
// MULTI: tcgen05.dealloc %tmem_base, 256
// MULTI-NOT: tcgen05.alloc
// MULTI: func.return
func.func @growing(%v: vector<256xf32>, %w: vector<64xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %b = tcgen05.buffer : !small
  tcgen05.tile_store %w, %b [0, 0] [128, 64] : vector<64xf32>, !small
  %y = tcgen05.tile_load %b [0, 0] [128, 64] : !small -> vector<64xf32>
  %a = tcgen05.buffer : !big
  tcgen05.tile_store %v, %a [0, 0] [128, 256] : vector<256xf32>, !big
  %x = tcgen05.tile_load %a [0, 0] [128, 256] : !big -> vector<256xf32>
  func.return
}

// -----

!t = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
// Disjoint lifetimes would share columns 0-31; tcgen05.no_reuse gives %a its own.
// ONE-LABEL: func.func @no_reuse
// ONE: tcgen05.alloc %{{.*}}, 64
// ONE: %a = tcgen05.decl_buffer {{.*}}"columns [{{0, 32|32, 64}}), lane offset 0"
// ONE: %b = tcgen05.decl_buffer {{.*}}"columns [{{0, 32|32, 64}}), lane offset 0"
func.func @no_reuse(%v: vector<32xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %a = tcgen05.buffer {tcgen05.no_reuse} : !t
  %b = tcgen05.buffer : !t
  tcgen05.tile_store %v, %a [0, 0] [128, 32] : vector<32xf32>, !t
  %x = tcgen05.tile_load %a [0, 0] [128, 32] : !t -> vector<32xf32>
  tcgen05.tile_store %v, %b [0, 0] [128, 32] : vector<32xf32>, !t
  %y = tcgen05.tile_load %b [0, 0] [128, 32] : !t -> vector<32xf32>
  func.return
}
