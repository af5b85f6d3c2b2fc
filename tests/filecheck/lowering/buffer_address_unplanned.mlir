// A tcgen05.buffer_address the lowering meets (tmem-plan-columns did not run) is an error at the op.
// RUN: not tmem-opt %s -p convert-tcgen05-to-nvvm 2>&1 | filecheck %s
// RUN: not tmem-opt %s -t ptx 2>&1 | filecheck %s --check-prefix=PTX

!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @unplanned(%a: i64, %b: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %false = arith.constant false
  // CHECK: buffer_address_unplanned.mlir:[[# @LINE + 2]]:3: error: 'tcgen05.buffer' names a TMEM buffer not yet placed in columns: run tmem-plan-columns first
  // PTX: buffer_address_unplanned.mlir:[[# @LINE + 1]]:3: error: 'tcgen05.buffer' names a TMEM buffer not yet placed in columns
  %acc = tcgen05.buffer : !acc
  // CHECK: buffer_address_unplanned.mlir:[[# @LINE + 2]]:3: error: 'tcgen05.buffer_address' names a TMEM buffer not yet placed in columns: run tmem-plan-columns first
  // PTX: buffer_address_unplanned.mlir:[[# @LINE + 1]]:3: error: 'tcgen05.buffer_address' names a TMEM buffer not yet placed in columns
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %idesc = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  tcgen05.mma f16 %d, %a, %b, %idesc, %false : i64
  func.return
}
