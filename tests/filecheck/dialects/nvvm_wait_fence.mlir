// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s --print-op-generic | tmem-opt | filecheck %s
// RUN: tmem-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// nvvm.tcgen05.wait <load|store> and nvvm.tcgen05.fence <before|after> (upstream syntax).

// CHECK-LABEL: llvm.func @sync
llvm.func @sync() {
  // CHECK-NEXT: nvvm.tcgen05.wait <load>
  // GENERIC: "nvvm.tcgen05.wait"() <{kind = #nvvm.tcgen05_wait<load>}> : () -> ()
  nvvm.tcgen05.wait <load>
  // CHECK-NEXT: nvvm.tcgen05.wait <store>
  // GENERIC-NEXT: "nvvm.tcgen05.wait"() <{kind = #nvvm.tcgen05_wait<store>}> : () -> ()
  nvvm.tcgen05.wait <store>
  // CHECK-NEXT: nvvm.tcgen05.fence <before>
  // GENERIC-NEXT: "nvvm.tcgen05.fence"() <{kind = #nvvm.tcgen05_fence<before>}> : () -> ()
  nvvm.tcgen05.fence <before>
  // CHECK-NEXT: nvvm.tcgen05.fence <after>
  // GENERIC-NEXT: "nvvm.tcgen05.fence"() <{kind = #nvvm.tcgen05_fence<after>}> : () -> ()
  nvvm.tcgen05.fence <after>
  // CHECK-NEXT: llvm.return
  llvm.return
}
