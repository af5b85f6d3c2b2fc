// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// The #tcgen05.layout attribute in the TIRx notation: shard S[...], replica R[...], offsets,
// on TLane/TCol and the register axes warpid/laneid/m (a stride without an axis is on m).

// CHECK: "test.op"() {
"test.op"() {
  // CHECK-SAME: single = #tcgen05.layout<S[64 : 1@TCol]>
  single = #tcgen05.layout<S[64 : 1@TCol]>,
  // CHECK-SAME: tmem = #tcgen05.layout<S[(128, 256) : (1@TLane, 1@TCol)]>
  tmem = #tcgen05.layout<S[(128, 256) : (1@TLane, 1@TCol)]>,
  // CHECK-SAME: frag = #tcgen05.layout<S[(4, 32, 64) : (1@warpid, 1@laneid, 1)]>
  frag = #tcgen05.layout<S[(4, 32, 64) : (1@warpid, 1@laneid, 1)]>,
  // CHECK-SAME: rep = #tcgen05.layout<S[(4, 32, 64) : (1@warpid, 1@laneid, 1)] + R[2 : 64@TCol] + 16@TCol>
  rep = #tcgen05.layout<S[(4, 32, 64) : (1@warpid, 1@laneid, 1)] + R[2 : 64@TCol] + 16@TCol>,
  // CHECK-SAME: rep2 = #tcgen05.layout<S[32 : 1@laneid] + R[(2, 4) : (1@warpid, 2@warpid)]>
  rep2 = #tcgen05.layout<S[32 : 1@laneid] + R[(2, 4) : (1@warpid, 2@warpid)]>,
  // Two R[...] terms concatenate; two offsets on m are summed.
  // CHECK-SAME: cat = #tcgen05.layout<S[8 : 1] + R[(2, 3) : (8, 16)] + 5>
  cat = #tcgen05.layout<S[8 : 1] + R[2 : 8] + R[3 : 16] + 2 + 3@m>,
  // Explicit @m prints without the axis.
  // CHECK-SAME: m = #tcgen05.layout<S[(2, 4) : (4, 1)]>
  m = #tcgen05.layout<S[(2, 4) : (4@m, 1@m)]>,
  // Non mixed-radix but injective strides (3 and 2 never collide over extents 2 and 3).
  // CHECK-SAME: odd = #tcgen05.layout<S[(2, 3) : (3@TCol, 2@TCol)]>
  odd = #tcgen05.layout<S[(2, 3) : (3@TCol, 2@TCol)]>
} : () -> ()
