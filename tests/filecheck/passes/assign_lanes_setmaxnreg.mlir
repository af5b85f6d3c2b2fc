// Register budgets follow setmaxnreg: a message uses at most half the limit the last setmaxnreg
// before the tile op set (maxnreg / 2); an explicit regs-per-message still wins.
// RUN: tmem-opt -p tmem-assign-lanes %s | filecheck %s
// RUN: tmem-opt -p 'tmem-assign-lanes{regs-per-message=16}' %s | filecheck %s --check-prefix=EXPLICIT

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

// No setmaxnreg: the maxnreg option (256) gives 128 registers, two 32x32b.x128.
// CHECK-LABEL: func.func @default
// CHECK-COUNT-2: tcgen05.ld %{{.*}} shape_32x32b x128 : vector<128xi32>
// CHECK-NOT:   tcgen05.ld
// EXPLICIT-LABEL: func.func @default
// EXPLICIT-COUNT-16: tcgen05.ld %{{.*}} shape_32x32b x16 : vector<16xi32>
func.func @default(%base: i32) -> vector<256xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %buf = tcgen05.decl_buffer %base : !acc
  %r = tcgen05.tile_load %buf [0, 0] [128, 256] : !acc -> vector<256xf32>
  func.return %r : vector<256xf32>
}

// setmaxnreg.dec 64 before the tile op: 32 registers per message, eight x32.
// CHECK-LABEL: func.func @decreased
// CHECK:       nvvm.setmaxregister decrease 64
// CHECK-COUNT-8: tcgen05.ld %{{.*}} shape_32x32b x32 : vector<32xi32>
// CHECK-NOT:   tcgen05.ld
// EXPLICIT-LABEL: func.func @decreased
// EXPLICIT-COUNT-16: tcgen05.ld %{{.*}} shape_32x32b x16 : vector<16xi32>
func.func @decreased(%base: i32) -> vector<256xf32> attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  nvvm.setmaxregister decrease 64
  %buf = tcgen05.decl_buffer %base : !acc
  %r = tcgen05.tile_load %buf [0, 0] [128, 256] : !acc -> vector<256xf32>
  func.return %r : vector<256xf32>
}

// Inside a role branch, the setmaxnreg of the branch governs: inc 232 gives 116 registers, so x64
// (the largest legal num within 116), four of them.
// CHECK-LABEL: func.func @role
// CHECK:       scf.if
// CHECK-NEXT:    nvvm.setmaxregister increase 232
// CHECK-COUNT-4: tcgen05.ld %{{.*}} shape_32x32b x64 : vector<64xi32>
// CHECK-NOT:   tcgen05.ld
func.func @role(%base: i32, %consumer: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  nvvm.setmaxregister decrease 40
  scf.if %consumer {
    nvvm.setmaxregister increase 232
    %buf = tcgen05.decl_buffer %base : !acc
    %r = tcgen05.tile_load %buf [0, 0] [128, 256] : !acc -> vector<256xf32>
  }
  func.return
}
