// RUN: tmem-opt %s --split-input-file -p tmem-verify --verify-diagnostics

// tmem-verify, column counts given as operands (upstream NVVM): a constant operand is checked
// like the tcgen05 attribute (a power of 2 in [32, 512]; upstream's verifier does not), a
// computed constant is compared like a literal one, and a count that is not a constant makes
// the size rules undecidable: warnings, never a silent pass.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @constant_48() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c = llvm.mlir.constant(48 : i32) : i32
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 48}}
  nvvm.tcgen05.alloc %s, %c : !llvm.ptr<3>, i32
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  // expected-error@+1 {{nCols must be a power of 2 in [32, 512], got 48}}
  nvvm.tcgen05.dealloc %p, %c : !llvm.ptr<6>, i32
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// 16 * 2 = 32 columns allocated, 64 freed.
llvm.func @computed_count() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %c = llvm.mul %c16, %c2 : i32
  %c64 = llvm.mlir.constant(64 : i32) : i32
  // expected-note@+1 {{allocated 32 columns here}}
  nvvm.tcgen05.alloc %s, %c : !llvm.ptr<3>, i32
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  // expected-error@+1 {{tcgen05.dealloc frees 64 columns but the allocation it frees has 32}}
  nvvm.tcgen05.dealloc %p, %c64 : !llvm.ptr<6>, i32
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// A kernel argument: allocating and freeing the same %n is consistent; freeing 64 may not be,
// and a later allocation of %n may be larger than the 32 columns before it.
llvm.func @dynamic_count(%n: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %c64 = llvm.mlir.constant(64 : i32) : i32
  // expected-note@+1 {{the earlier allocation}}
  nvvm.tcgen05.alloc %s, %c32 : !llvm.ptr<3>, i32
  %a = llvm.load %s : !llvm.ptr<3> -> i32
  %pa = llvm.inttoptr %a : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %pa, %c32 : !llvm.ptr<6>, i32
  // expected-warning@+3 {{the column count is not a constant: cannot check that it is a power of 2 in [32, 512]}}
  // expected-warning@+2 {{cannot tell whether this tcgen05.alloc asks for more columns than an earlier allocation on some path (a column count is not a constant)}}
  // expected-note@+1 {{the allocation}}
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %pb = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  // expected-warning@+1 {{cannot tell whether this tcgen05.dealloc frees as many columns as the allocation it frees}}
  nvvm.tcgen05.dealloc %pb, %c64 : !llvm.ptr<6>, i32
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The same %n allocated and freed in a loop: nothing to say but that %n is not a constant.
llvm.func @dynamic_same(%n: i32, %iters: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  llvm.br ^h(%c0 : i32)
^h(%i: i32):
  %more = llvm.icmp "slt" %i, %iters : i32
  llvm.cond_br %more, ^body, ^done
^body:
  // expected-warning@+1 {{the column count is not a constant}}
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  %next = llvm.add %i, %c1 : i32
  llvm.br ^h(%next : i32)
^done:
  llvm.return
}

// -----

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

// The count differs between the threads of the warp (.sync.aligned needs the same operands).
llvm.func @divergent_count() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %n = llvm.add %tid, %c32 : i32
  // expected-error@+1 {{nvvm.tcgen05.alloc is warp-collective but its column count differs between the threads of a warp}}
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  %b = llvm.load %s : !llvm.ptr<3> -> i32
  %p = llvm.inttoptr %b : i32 to !llvm.ptr<6>
  // expected-error@+1 {{nvvm.tcgen05.dealloc is warp-collective but its column count differs between the threads of a warp}}
  nvvm.tcgen05.dealloc %p, %n : !llvm.ptr<6>, i32
  llvm.return
}
