// RUN: tmem-opt %S/../../../examples/tmem_shift.mlir -p tmem-pipeline -t ptx --ptxas-check | filecheck %s
// REQUIRES: ptxas

// The tcgen05.shift example, planned by tmem-pipeline (its 16 columns a tcgen05.buffer),
// assembles: two shifts (lane 0 and lane 64 + column 8) and the commit that tracks them.

// CHECK: tcgen05.st.sync.aligned.32x32b.x16.b32
// CHECK: tcgen05.wait::st.sync.aligned;
// CHECK: tcgen05.shift.cta_group::1.down [%r{{[0-9]+}}];
// CHECK: add.s32 %r[[SECOND:[0-9]+]], %r{{[0-9]+}}, 4194312;
// CHECK: tcgen05.shift.cta_group::1.down [%r[[SECOND]]];
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [shift_done];
// CHECK: tcgen05.ld.sync.aligned.32x32b.x16.b32
