// fuzz finding (issue 14): iree-opt-rejects [pipeline-nvvm] _ op must reference a global defined by _, _ or _ or _

// Upstream NVVM kernels (nvvm.tcgen05.* in llvm.func, llvm-dialect control flow) get
// nvvm.tcgen05.wait / nvvm.tcgen05.fence. The shipped example with its waits and fences
// removed gets back the same number of each (two waits, four fences).


// An llvm-dialect loop over four 32-column chunks (as scf-to-cf lowers an scf.for): the
// chunks are disjoint, so the stores need no wait between iterations; the loads of the
// second loop need the stores done: one wait::st in the second loop's preheader.
llvm.func @chunks() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %n = llvm.mlir.constant(128 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %p = llvm.mlir.poison : vector<32xi32>
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  llvm.br ^head1(%c0 : i32)
^head1(%i: i32):
  %more = llvm.icmp "slt" %i, %c4 : i32
  llvm.cond_br %more, ^body1, ^between
^body1:
  %col = llvm.mul %i, %c32 : i32
  %a = llvm.add %base, %col : i32
  %t = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  nvvm.tcgen05.st %t, %p shape = shape_32x32b : vector<32xi32>
  %next = llvm.add %i, %c1 : i32
  llvm.br ^head1(%next : i32)
^between:
  llvm.br ^head2(%c0 : i32)
^head2(%j: i32):
  %more2 = llvm.icmp "slt" %j, %c4 : i32
  llvm.cond_br %more2, ^body2, ^done
^body2:
  %col2 = llvm.mul %j, %c32 : i32
  %a2 = llvm.add %base, %col2 : i32
  %t2 = llvm.inttoptr %a2 : i32 to !llvm.ptr<6>
  %v = nvvm.tcgen05.ld %t2 shape = shape_32x32b : vector<32xi32>
  %next2 = llvm.add %j, %c1 : i32
  llvm.br ^head2(%next2 : i32)
^done:
  %bp = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %bp, %n : !llvm.ptr<6>, i32
  llvm.return
}
