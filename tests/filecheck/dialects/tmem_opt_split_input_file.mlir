// RUN: tmem-opt %s --split-input-file | filecheck %s
// RUN: tmem-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// --split-input-file processes each chunk between split markers as its own module and joins
// the results with the same marker.

// CHECK: func.func @first
// CHECK: tcgen05.wait load
// CHECK: {{^}}// {{-----$}}
// CHECK: func.func @second
// CHECK: tcgen05.fence after_thread_sync
// CHECK: {{^}}// {{-----$}}
// CHECK: func.func @third
// GENERIC-COUNT-3: "builtin.module"()
func.func @first() {
  tcgen05.wait load
  func.return
}

// -----

func.func @second() {
  tcgen05.fence after_thread_sync
  func.return
}

// -----

func.func @third() {
  func.return
}
