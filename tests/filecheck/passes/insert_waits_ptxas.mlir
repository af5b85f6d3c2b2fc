// REQUIRES: ptxas
// RUN: tmem-opt %S/../../../examples/tmem_roundtrip.mlir -p tmem-insert-waits -t ptx --ptxas-check | filecheck %s
// RUN: tmem-opt %S/../../../examples/racy/chunked_epilogue.mlir -p tmem-insert-waits -t ptx --ptxas-check > /dev/null
// RUN: grep -v -e "tcgen05.wait" -e "tcgen05.fence" %S/../../../examples/nvvm_roundtrip.mlir | tmem-opt -p tmem-insert-waits -t ptx --ptxas-check > /dev/null

// ptxas (sm_100a) assembles the kernels tmem-insert-waits completes, in the canonical order
// of TMEM_FACTS.md: st; wait::st; ld; ...; wait::ld; fence::before_thread_sync; bar.sync;
// fence::after_thread_sync; dealloc.

// CHECK:      tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK:      tcgen05.st.sync.aligned.32x32b.x1.b32
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x1.b32
// CHECK:      tcgen05.wait::ld.sync.aligned;
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK:      tcgen05.dealloc.cta_group::1.sync.aligned.b32
