// fuzz finding (issue 14): internal-error [parse] tmem-opt: internal error: error: _ format requires -_ <= number <= _ (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)

// Every legal .num of tcgen05.ld/st .16x32bx2 (with and without pack::16b / unpack::16b),
// in LLVM NVPTX's exact spelling: register lists, bracketed address, immHalfSplitoff immediate.

llvm.func @ld_16x32bx2(%t: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %off = llvm.mlir.constant(2 : i64) : i64
  %v1 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<1xi32>
  %v2 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<2xi32>
  %v4 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<4xi32>
  %v8 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<8xi32>
  %v16 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<16xi32>
  %v32 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<32xi32>
  %v64 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<64xi32>
  %v128 = nvvm.tcgen05.ld %taddr, %off shape = shape_16x32bx2 : vector<128xi32>
  llvm.return
}

llvm.func @ld_16x32bx2_pack(%t: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %off = llvm.mlir.constant(2 : i64) : i64
  %v1 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<1xi32>
  %v2 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<2xi32>
  %v4 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<4xi32>
  %v8 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<8xi32>
  %v16 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<16xi32>
  %v32 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<32xi32>
  %v64 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<64xi32>
  %v128 = nvvm.tcgen05.ld %taddr, %off pack shape = shape_16x32bx2 : vector<128xi32>
  llvm.return
}

llvm.func @st_16x32bx2(%t: i32, %x: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %p = llvm.mlir.poison : vector<1xi32>
  %one = llvm.insertelement %x, %p[%c0 : i32] : vector<1xi32>
  %off = llvm.mlir.constant(2 : i64) : i64
  %s1 = llvm.shufflevector %one, %one [0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s1, %off shape = shape_16x32bx2 : vector<1xi32>
  %s2 = llvm.shufflevector %one, %one [0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s2, %off shape = shape_16x32bx2 : vector<2xi32>
  %s4 = llvm.shufflevector %one, %one [0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s4, %off shape = shape_16x32bx2 : vector<4xi32>
  %s8 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s8, %off shape = shape_16x32bx2 : vector<8xi32>
  %s16 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s16, %off shape = shape_16x32bx2 : vector<16xi32>
  %s32 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s32, %off shape = shape_16x32bx2 : vector<32xi32>
  %s64 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s64, %off shape = shape_16x32bx2 : vector<64xi32>
  %s128 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s128, %off shape = shape_16x32bx2 : vector<128xi32>
  llvm.return
}

llvm.func @st_16x32bx2_unpack(%t: i32, %x: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %p = llvm.mlir.poison : vector<1xi32>
  %one = llvm.insertelement %x, %p[%c0 : i32] : vector<1xi32>
  %off = llvm.mlir.constant(2 : i64) : i64
  %s1 = llvm.shufflevector %one, %one [0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s1, %off unpack shape = shape_16x32bx2 : vector<1xi32>
  %s2 = llvm.shufflevector %one, %one [0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s2, %off unpack shape = shape_16x32bx2 : vector<2xi32>
  %s4 = llvm.shufflevector %one, %one [0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s4, %off unpack shape = shape_16x32bx2 : vector<4xi32>
  %s8 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s8, %off unpack shape = shape_16x32bx2 : vector<8xi32>
  %s16 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s16, %off unpack shape = shape_16x32bx2 : vector<16xi32>
  %s32 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s32, %off unpack shape = shape_16x32bx2 : vector<32xi32>
  %s64 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s64, %off unpack shape = shape_16x32bx2 : vector<64xi32>
  %s128 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 17179869184, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s128, %off unpack shape = shape_16x32bx2 : vector<128xi32>
  llvm.return
}
