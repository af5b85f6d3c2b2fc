// REQUIRES: matplotlib
// RUN: python -m tmem_dialect.tools.draw fragment 16x64b.x1 -o %t.svg
// RUN: filecheck %s --input-file %t.svg --check-prefix=FRAG
// RUN: python -m tmem_dialect.tools.draw plan %s -o %t.plan.svg --regs-per-message 16
// RUN: filecheck %s --input-file %t.plan.svg --check-prefix=PLAN
// RUN: not python -m tmem_dialect.tools.draw fragment 16x64b.x256 -o %t.bad.svg 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not python -m tmem_dialect.tools.draw fragment ld.16x64b.x1.unpack -o %t.bad.svg 2>&1 | filecheck %s --check-prefix=UNPACK

// A 128x32 f32 tile: thread t of the warpgroup holds row t.

func.func @k(%base: i32, %v: vector<32xf32>) attributes {tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %acc = tcgen05.decl_buffer %base : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  tcgen05.tile_store %v, %acc [0, 0] [128, 32] : vector<32xf32>, !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  func.return
}

// 16x64b: thread t, register 0 -> lane (t>>2) + 8*(t&1), column (t>>1)&1.
// FRAG: <g id="tmem:t=0:r=0:h=0:lane=0:col=0">
// FRAG: <g id="tmem:t=1:r=0:h=0:lane=8:col=0">
// FRAG: <g id="tmem:t=2:r=0:h=0:lane=0:col=1">
// FRAG: <g id="tmem:t=31:r=0:h=0:lane=15:col=1">
// FRAG: <g id="reg:t=0:r=0:h=0">
// FRAG: <g id="reg:t=31:r=0:h=0">
// FRAG: tcgen05.ld/st .16x64b.x1

// 16 registers per message: two 32x32b.x16 per warp.
// PLAN-DAG: tmem-assign-lanes plan (16 registers per message at most)
// PLAN-DAG: <g id="msg:warp=0:index=0:form=32x32b.x16:lanes=0-31:cols=0-15">
// PLAN-DAG: <g id="msg:warp=0:index=1:form=32x32b.x16:lanes=0-31:cols=16-31">
// PLAN-DAG: <g id="msg:warp=3:index=1:form=32x32b.x16:lanes=96-127:cols=16-31">
// PLAN-DAG: warp 2 (w % 4 = 2): 2 x 32x32b.x16

// BAD: tmem-draw: error: form '16x64b.x256': num must be one of x1, x2, x4, ..., x128, got x256
// UNPACK: tmem-draw: error: form 'ld.16x64b.x1.unpack': unpack::16b is not valid on tcgen05.ld (it takes pack::16b)
