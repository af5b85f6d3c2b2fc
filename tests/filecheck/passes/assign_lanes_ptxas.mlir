// The pass output lowers to NVVM and PTX that ptxas accepts: the shipped examples and kernels with
// 16x32bx2 (packed), warp dispatch, unpacked 16-bit remainders and register copies.
// REQUIRES: ptxas
// RUN: tmem-opt -p tmem-assign-lanes,convert-tcgen05-to-nvvm %s -t ptx -o %t.ptxtext
// RUN: ptxas -arch=sm_100a %t.ptxtext -o %t.cubin
// RUN: filecheck %s --input-file=%t.ptxtext
// RUN: tmem-opt -p tmem-plan-columns,tmem-assign-lanes,convert-tcgen05-to-nvvm %S/../../../examples/accumulator_readout.mlir -t ptx -o %t.acc.ptxtext
// RUN: ptxas -arch=sm_100a %t.acc.ptxtext -o %t.acc.cubin
// RUN: tmem-opt -p tmem-plan-columns,tmem-assign-lanes,convert-tcgen05-to-nvvm %S/../../../examples/m64_f16.mlir -t ptx -o %t.m64.ptxtext
// RUN: ptxas -arch=sm_100a %t.m64.ptxtext -o %t.m64.cubin

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

!split16 = !tcgen05.tmem<128x32xf16, S[(4, 2, 16, 32) : (32@TLane, 32@TCol, 1@TLane, 1@TCol)]>
!zigzag = !tcgen05.tmem<64x64xf32, S[(2, 2, 16, 64) : (64@TLane, 48@TLane, 1@TLane, 1@TCol)]>
!odd = !tcgen05.tmem<128x3xbf16, S[(128, 3) : (1@TLane, 1@TCol)]>
!acc = !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>

// CHECK-LABEL: .entry half_split_f16
// CHECK: tcgen05.st.sync.aligned.16x32bx2.x16.unpack::16b.b32 [%r{{[0-9]+}}], 32, {
// CHECK: tcgen05.ld.sync.aligned.16x32bx2.x16.pack::16b.b32 {{.*}}, [%r{{[0-9]+}}], 32;
func.func @half_split_f16(%in: memref<4096xf16>, %out: memref<4096xf16>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %buf = tcgen05.decl_buffer %base : !split16
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  %v = vector.load %in[%first] : memref<4096xf16>, vector<32xf16>
  tcgen05.tile_store %v, %buf [0, 0] [128, 32] : vector<32xf16>, !split16
  tcgen05.wait store
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] : !split16 -> vector<32xf16>
  vector.store %r, %out[%first] : memref<4096xf16>, vector<32xf16>
  tcgen05.wait load
  nvvm.barrier
  scf.if %is0 {
    tcgen05.dealloc %base, 64
  }
  func.return
}

// CHECK-LABEL: .entry zigzag
// CHECK: tcgen05.ld.sync.aligned.16x256b.x8.b32
// CHECK: tcgen05.ld.sync.aligned.16x256b.x8.b32
func.func @zigzag(%out: memref<4096xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c32 = arith.constant 32 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %buf = tcgen05.decl_buffer %base : !zigzag
  %r = tcgen05.tile_load %buf [0, 0] [64, 64] frag <S[(2, 2, 2, 8, 8, 4, 2) : (2@warpid, 1@warpid, 2, 4@laneid, 4, 1@laneid, 1)]> : !zigzag -> vector<32xf32>
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c32 : index
  vector.store %r, %out[%first] : memref<4096xf32>, vector<32xf32>
  tcgen05.wait load
  nvvm.barrier
  scf.if %is0 {
    tcgen05.dealloc %base, 64
  }
  func.return
}

// CHECK-LABEL: .entry odd_bf16
// CHECK: tcgen05.st.sync.aligned.32x32b.x1.unpack::16b.b32
// CHECK: tcgen05.st.sync.aligned.32x32b.x1.b32
func.func @odd_bf16(%in: memref<384xbf16>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c3 = arith.constant 3 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %buf = tcgen05.decl_buffer %base : !odd
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c3 : index
  %v = vector.load %in[%first] : memref<384xbf16>, vector<3xbf16>
  tcgen05.tile_store %v, %buf [0, 0] [128, 3] : vector<3xbf16>, !odd
  tcgen05.wait store
  nvvm.barrier
  scf.if %is0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}

// CHECK-LABEL: .entry copies
// CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32
func.func @copies(%out: memref<8192xf32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c64 = arith.constant 64 : index
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %buf = tcgen05.decl_buffer %base : !acc
  %r = tcgen05.tile_load %buf [0, 0] [128, 32] frag <S[(4, 32, 32) : (1@warpid, 1@laneid, 1)] + R[2 : 32]> : !acc -> vector<64xf32>
  %t = arith.index_cast %tid : i32 to index
  %first = arith.muli %t, %c64 : index
  vector.store %r, %out[%first] : memref<8192xf32>, vector<64xf32>
  tcgen05.wait load
  nvvm.barrier
  scf.if %is0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}
