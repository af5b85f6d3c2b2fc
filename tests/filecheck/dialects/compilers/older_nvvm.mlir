// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s | iree-opt | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: iree-opt
// NVVM spellings of other MLIR eras, as CuTe DSL prints them, read and printed in today's upstream
// form: tcgen05.ld/st with the shape in the attribute dictionary, and nvvm.barrier with three
// operand segments (a later upstream adds a reduction predicate) in generic form.

llvm.func @k(%p: !llvm.ptr<6>, %v: vector<4xi32>, %id: i32, %n: i32) {
  nvvm.tcgen05.st %p, %v {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
  %r = nvvm.tcgen05.ld %p {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : vector<4xi32>
  "nvvm.barrier"(%id, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> ()
  "nvvm.barrier"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> ()
  llvm.return
}

// CHECK:      nvvm.tcgen05.st %{{.*}}, %{{.*}} shape = shape_32x32b : vector<4xi32>
// CHECK-NEXT: nvvm.tcgen05.ld %{{.*}} shape = shape_16x128b : vector<4xi32>
// CHECK-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NEXT: nvvm.barrier{{$}}
// UPSTREAM:   nvvm.tcgen05.st
// UPSTREAM:   nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
