// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Both wait kinds and both fence kinds.

// CHECK-LABEL: func.func @sync
func.func @sync() {
  // CHECK-NEXT: tcgen05.wait load
  // GENERIC: "tcgen05.wait"() <{kind = #tcgen05<wait_kind load>}> : () -> ()
  tcgen05.wait load
  // CHECK-NEXT: tcgen05.wait store
  // GENERIC-NEXT: "tcgen05.wait"() <{kind = #tcgen05<wait_kind store>}> : () -> ()
  tcgen05.wait store
  // CHECK-NEXT: tcgen05.fence before_thread_sync
  // GENERIC-NEXT: "tcgen05.fence"() <{kind = #tcgen05<fence_kind before_thread_sync>}> : () -> ()
  tcgen05.fence before_thread_sync
  // CHECK-NEXT: tcgen05.fence after_thread_sync
  // GENERIC-NEXT: "tcgen05.fence"() <{kind = #tcgen05<fence_kind after_thread_sync>}> : () -> ()
  tcgen05.fence after_thread_sync
  // CHECK-NEXT: func.return
  func.return
}
