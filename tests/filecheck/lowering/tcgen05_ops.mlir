// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | filecheck %s
// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm | iree-opt > /dev/null
// REQUIRES: iree-opt

// Each tcgen05 op becomes its upstream nvvm.tcgen05 twin: TMEM addresses (i32) become
// !llvm.ptr<6> through llvm.inttoptr, nCols and the half-split offset become constants, the
// kernel attributes become nvvm.kernel / nvvm.reqntid, and a memref.global slot in shared
// memory becomes an addr_space 3 llvm.mlir.global read through llvm.mlir.addressof.

"memref.global"() <{sym_name = "mslot", sym_visibility = "private", type = memref<1xi32, 3>, initial_value, alignment = 4 : i64}> : () -> ()

// CHECK:      llvm.mlir.global internal @mslot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
// CHECK-LABEL: llvm.func @ops(%t: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256, 1, 1>} {
// CHECK-NEXT:   %slot = llvm.mlir.addressof @mslot : !llvm.ptr<3>
// CHECK-NEXT:   %[[N:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT:   nvvm.tcgen05.alloc %slot, %[[N]], group = <cta_2> : !llvm.ptr<3>, i32
// CHECK-NEXT:   nvvm.tcgen05.relinquish_alloc_permit group = <cta_2>
// CHECK-NEXT:   %base = llvm.load %slot : !llvm.ptr<3> -> i32
// CHECK-NEXT:   %[[P1:.*]] = llvm.inttoptr %t : i32 to !llvm.ptr<6>
// CHECK-NEXT:   %[[OFF1:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:   %v = nvvm.tcgen05.ld %[[P1]], %[[OFF1]] pack shape = shape_16x32bx2 : vector<2xi32>
// CHECK-NEXT:   %[[P2:.*]] = llvm.inttoptr %t : i32 to !llvm.ptr<6>
// CHECK-NEXT:   %[[OFF2:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:   nvvm.tcgen05.st %[[P2]], %v, %[[OFF2]] unpack shape = shape_16x32bx2 : vector<2xi32>
// CHECK-NEXT:   %[[P3:.*]] = llvm.inttoptr %t : i32 to !llvm.ptr<6>
// CHECK-NEXT:   %w = nvvm.tcgen05.ld %[[P3]] shape = shape_16x256b : vector<16xi32>
// CHECK-NEXT:   %[[P4:.*]] = llvm.inttoptr %t : i32 to !llvm.ptr<6>
// CHECK-NEXT:   nvvm.tcgen05.st %[[P4]], %w shape = shape_16x256b : vector<16xi32>
// CHECK-NEXT:   nvvm.tcgen05.wait <load>
// CHECK-NEXT:   nvvm.tcgen05.wait <store>
// CHECK-NEXT:   nvvm.tcgen05.fence <before>
// CHECK-NEXT:   nvvm.tcgen05.fence <after>
// CHECK-NEXT:   %[[P5:.*]] = llvm.inttoptr %base : i32 to !llvm.ptr<6>
// CHECK-NEXT:   %[[N2:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT:   nvvm.tcgen05.dealloc %[[P5]], %[[N2]], group = <cta_2> : !llvm.ptr<6>, i32
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }
func.func @ops(%t: i32) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 256, 1, 1>} {
  %slot = memref.get_global @mslot : memref<1xi32, 3>
  tcgen05.alloc %slot, 64 cta_group(2) : memref<1xi32, 3>
  tcgen05.relinquish_alloc_permit cta_group(2)
  %c0 = arith.constant 0 : index
  %base = memref.load %slot[%c0] : memref<1xi32, 3>
  // A buffer view without tile ops left is simply dropped.
  %buf = tcgen05.decl_buffer %base : !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
  %v = tcgen05.ld %t, offset 16 shape_16x32bx2 x2 pack : vector<2xi32>
  tcgen05.st %v, %t, offset 16 shape_16x32bx2 x2 unpack : vector<2xi32>
  %w = tcgen05.ld %t shape_16x256b x4 : vector<16xi32>
  tcgen05.st %w, %t shape_16x256b x4 : vector<16xi32>
  tcgen05.wait load
  tcgen05.wait store
  tcgen05.fence before_thread_sync
  tcgen05.fence after_thread_sync
  tcgen05.dealloc %base, 64 cta_group(2)
  func.return
}

// An llvm-level slot (the form of examples/) and cta_group 1: the group is not printed.
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// CHECK-LABEL: llvm.func @llvm_slot() attributes {nvvm.kernel} {
// CHECK:         nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.tcgen05.relinquish_alloc_permit{{$}}
// CHECK:         %[[T:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
// CHECK:         nvvm.tcgen05.dealloc %[[T]], %{{.*}} : !llvm.ptr<6>, i32
func.func @llvm_slot() attributes {tcgen05.kernel} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %slot, 512 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  tcgen05.dealloc %base, 512
  func.return
}
