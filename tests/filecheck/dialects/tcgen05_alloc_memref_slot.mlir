// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s

// tcgen05.alloc also writes into a memref<1xi32> in shared memory (address space 3),
// e.g. from memref.get_global or a function argument.

"memref.global"() <{sym_name = "slot", sym_visibility = "private", type = memref<1xi32, 3>, initial_value}> : () -> ()

// CHECK-LABEL: func.func @memref_slot
func.func @memref_slot(%w: memref<1xi32, 3>) {
  // CHECK: %[[S:.*]] = memref.get_global @slot : memref<1xi32, 3 : i64>
  %s = memref.get_global @slot : memref<1xi32, 3>
  // CHECK-NEXT: tcgen05.alloc %[[S]], 64 : memref<1xi32, 3 : i64>
  tcgen05.alloc %s, 64 : memref<1xi32, 3>
  // CHECK-NEXT: tcgen05.alloc %w, 32 cta_group(2) : memref<1xi32, 3 : i64>
  tcgen05.alloc %w, 32 cta_group(2) : memref<1xi32, 3>
  %c0 = arith.constant 0 : index
  %t = memref.load %s[%c0] : memref<1xi32, 3>
  // CHECK: tcgen05.dealloc %{{.*}}, 64
  tcgen05.dealloc %t, 64
  func.return
}
