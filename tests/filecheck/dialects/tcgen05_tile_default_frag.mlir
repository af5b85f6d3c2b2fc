// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Tile ops without frag: a 128-row region uses one row per thread of the warpgroup, so each
// thread holds one register element per region column.

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

// CHECK-LABEL: func.func @default_frag
func.func @default_frag(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  // CHECK: %[[T:.*]] = tcgen05.tile_load %{{.*}} [0, 0] [128, 16] : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]> -> vector<16xf32>
  // GENERIC: "tcgen05.tile_load"(%{{.*}}) <{offsets = array<i64: 0, 0>, sizes = array<i64: 128, 16>}> : (!tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>) -> vector<16xf32>
  %t = tcgen05.tile_load %b [0, 0] [128, 16] : !acc -> vector<16xf32>
  // CHECK-NEXT: tcgen05.tile_store %[[T]], %{{.*}} [0, 240] [128, 16] : vector<16xf32>, !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
  // GENERIC: "tcgen05.tile_store"(%{{.*}}, %{{.*}}) <{offsets = array<i64: 0, 240>, sizes = array<i64: 128, 16>}> : (vector<16xf32>, !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>) -> ()
  tcgen05.tile_store %t, %b [0, 240] [128, 16] : vector<16xf32>, !acc
  // The whole buffer in one region: 256 elements per thread.
  // CHECK-NEXT: tcgen05.tile_load %{{.*}} [0, 0] [128, 256] : {{.*}} -> vector<256xf32>
  %all = tcgen05.tile_load %b [0, 0] [128, 256] : !acc -> vector<256xf32>
  // A single column.
  // CHECK-NEXT: tcgen05.tile_load %{{.*}} [0, 7] [128, 1] : {{.*}} -> vector<1xf32>
  %one = tcgen05.tile_load %b [0, 7] [128, 1] : !acc -> vector<1xf32>
  func.return
}
