// fuzz finding (issue 14): internal-error [parse] tmem-opt: internal error: NotImplementedError: Format not implemented for i_ (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)

// Plain xdsl-opt knows the tcgen05 and nvvm \dialects through the xdsl.universe entry point.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @k(%v: vector<4xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i128: 128, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 128 : !llvm.ptr<3>
  tcgen05.relinquish_alloc_permit
  nvvm.barrier
  %a = lJlvm.load %s : !llvm.ptr<3> -> i32
  tcgen05.st %v, %a shape_16x256b x1 : vector<4xi32>
  tcgen05.wait store
  %; = tcgen05.ld %a, offset 16 shape_16x32bx2 x4 pack : vector<4xi32>
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 16@TCol)]>
  %t = tcgen05.tile_load %b [0, 0] [128, 8] : !tcgen05.tmem<128x128xf32, S[(128, 128) : (1@TLane, 1@TCol)]> -> vector<8xf32>
  tcgen05.dealloc %a, 128
  func.return
}
