// fuzz finding (issue 14): iree-opt-rejects [pipeline-nvvm] _ op using value defined outside the region

// Every legal .num of tcgen05.ld/st .16x128b (with and without pack::16b / unpack::16b),
// in LLVM NVPTX's exact spelling: register lists, bracketed address.

llvm.func @ld_16x128b(%t: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %v1 = nvvm.tcgen05.ld %taddr shape = shape_16x128b : vector<2xi32>
  %v2 = nvvm.tcgen05.ld %taddr shape = shape_16x128b : vector<4xi32>
  %v4 = nvvm.tcgen05.ld %taddr shape = shape_16x128b : vector<8xi32>
  %v8 = nvvm.tcgen05.ld %taddr shape = shape_16x128b : vector<16xi32>
  %s8 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  %v32 = nvvm.tcgen05.ld %taddr shape = shape_16x128b : vector<64xi32>
  %v64 = nvvm.tcgen05.ld %taddr shape = shape_16x128b : vector<128xi32>
  llvm.return
}

llvm.func @ld_16x128b_pack(%t: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %v1 = nvvm.tcgen05.ld %taddr pack shape = shape_16x128b : vector<2xi32>
  %v2 = nvvm.tcgen05.ld %taddr pack shape = shape_16x128b : vector<4xi32>
  %v4 = nvvm.tcgen05.ld %taddr pack shape = shape_16x128b : vector<8xi32>
  %v8 = nvvm.tcgen05.ld %taddr pack shape = shape_16x128b : vector<16xi32>
  %v16 = nvvm.tcgen05.ld %taddr pack shape = shape_16x128b : vector<32xi32>
  %v32 = nvvm.tcgen05.ld %taddr pack shape = shape_16x128b : vector<64xi32>
  %v64 = nvvm.tcgen05.ld %taddr pack shape = shape_16x128b : vector<128xi32>
  llvm.return
}

llvm.func @st_16x128b(%t: i32, %x: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %p = llvm.mlir.poison : vector<1xi32>
  %one = llvm.insertelement %x, %p[%c0 : i32] : vector<1xi32>
  %s1 = llvm.shufflevector %one, %one [0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s1 shape = shape_16x128b : vector<2xi32>
  %s2 = llvm.shufflevector %one, %one [0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s2 shape = shape_16x128b : vector<4xi32>
  %s4 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s4 shape = shape_16x128b : vector<8xi32>
  %v16 = nvvm.tcgen05.ld %taddr shape = shape_16x128b : vector<32xi32>
  nvvm.tcgen05.st %taddr, %s8 shape = shape_16x128b : vector<16xi32>
  %s16 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s16 shape = shape_16x128b : vector<32xi32>
  %s32 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s32 shape = shape_16x128b : vector<64xi32>
  %s64 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s64 shape = shape_16x128b : vector<128xi32>
  llvm.return
}

llvm.func @st_16x128b_unpack(%t: i32, %x: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %p = llvm.mlir.poison : vector<1xi32>
  %one = llvm.insertelement %x, %p[%c0 : i32] : vector<1xi32>
  %s1 = llvm.shufflevector %one, %one [0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s1 unpack shape = shape_16x128b : vector<2xi32>
  %s2 = llvm.shufflevector %one, %one [0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s2 unpack shape = shape_16x128b : vector<4xi32>
  %s4 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s4 unpack shape = shape_16x128b : vector<8xi32>
  %s8 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s8 unpack shape = shape_16x128b : vector<16xi32>
  %s16 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s16 unpack shape = shape_16x128b : vector<32xi32>
  %s32 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s32 unpack shape = shape_16x128b : vector<64xi32>
  %s64 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s64 unpack shape = shape_16x128b : vector<128xi32>
  llvm.return
}
