// fuzz finding (issue 14): iree-opt-rejects [pipeline-nvvm] _ op expects type to be a valid element type for an LLVM global


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : si32

func.func @tiles(%x: f32) attributes {tcgen05.kernel} {
  %v = vector.broadcast %x : f32 to vector<32xf32>
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %buf = tcgen05.decl_buffer %base : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  tcgen05.tile_store %v, %buf [0, 0] [128, 32] : vector<32xf32>, !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  func.return
}
