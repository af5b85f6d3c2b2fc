// fuzz finding (issue 14): iree-opt-rejects [pipeline-nvvm] _ op pointer address space must match address space of the referenced global or alias

// tmem-verify, the waits and fences of TMEM_FACTS.md "Completion and ordering" (rules 1-4).
// Single-warp kernels keep the cross-warp rules out of the way where a case is about one warp.

llvm.mlir.global internal @slot() {addr_space = 32 : i32, alignment = 4 : i64} : i32

// Rule 1: st to cells an outstanding ld still reads.
func.func @rule1_anti_dependency() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %s, 32 : !llvm.ptr<3>
  %t = llvm.load %s : !llvm.ptr<3> -> i32
  %v = tcgen05.ld %t shape_32x32b x4 : vector<4xi32>
  // Reading %v before wait::ld is legal: the register dependency is honored.
  %w = arith.addi %v, %v : vector<4xi32>
  tcgen05.st %w, %t shape_32x32b x4 : vector<4xi32>
  tcgen05.wait store
  tcgen05.dealloc %t, 32
  func.return
}

