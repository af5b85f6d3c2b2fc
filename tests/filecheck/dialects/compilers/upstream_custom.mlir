// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// The body below is iree-opt's custom-form output (iree-base-compiler 3.13.0) of a module with
// what CuTe DSL and Triton print: gpu.module with #nvvm.target, loop_unroll/loop_annotation
// aliases, llvm.intr.assume/trap, addrspacecast, llvm.mlir.zero of vector/integer/struct type,
// trunc overflow flags, select on vector<4xi1>, inline_asm operand_attrs, thread_local globals and
// scf.for unsigned. upstream_iree.mlir checks that iree-opt reads what tmem-opt prints back.

// CHECK:      gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">] {
// CHECK:        %{{.*}} = llvm.mlir.zero : vector<4xi32>
// CHECK-NEXT:   %{{.*}} = llvm.mlir.zero : i32
// CHECK-NEXT:   %{{.*}} = llvm.mlir.zero : !llvm.struct<(i32, f32)>
// CHECK:        llvm.intr.assume
// CHECK-NEXT:   llvm.addrspacecast %{{.*}} : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:   llvm.trunc %{{.*}} overflow<nsw> : i32 to i16
// CHECK:        llvm.select %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:   llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0;", "=r" : () -> i32
// CHECK-NEXT:   llvm.br ^bb1 loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>
// CHECK:        llvm.intr.trap
// CHECK:      llvm.mlir.global internal thread_local @tls(0 : i32) {addr_space = 0 : i32} : i32
// CHECK:      scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {

#loop_unroll = #llvm.loop_unroll<disable = true>
#loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">] {
    llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: i32) attributes {nvvm.kernel} {
      %0 = llvm.mlir.constant(0 : i32) : i32
      %1 = llvm.mlir.zero : vector<4xi32>
      %2 = llvm.mlir.zero : i32
      %3 = llvm.mlir.zero : !llvm.struct<(i32, f32)>
      %4 = llvm.icmp "slt" %0, %arg1 : i32
      llvm.intr.assume %4 : i1
      %5 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
      %6 = llvm.trunc %arg1 overflow<nsw> : i32 to i16
      %7 = llvm.mlir.constant(dense<true> : vector<4xi1>) : vector<4xi1>
      %8 = llvm.select %7, %1, %1 : vector<4xi1>, vector<4xi32>
      %9 = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0;", "=r"  : () -> i32
      llvm.br ^bb1 loop_annotation = #loop_annotation
    ^bb1:  // pred: ^bb0
      llvm.cond_br %4, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      llvm.intr.trap
      llvm.unreachable
    ^bb3:  // pred: ^bb1
      llvm.return
    }
  }
  llvm.mlir.global internal thread_local @tls(0 : i32) {addr_space = 0 : i32} : i32
  func.func @f(%arg0: i32, %arg1: i32) {
    %c1_i32 = arith.constant 1 : i32
    scf.for unsigned %arg2 = %arg0 to %arg1 step %c1_i32  : i32 {
    }
    return
  }
}

