// RUN: tmem-opt %s -t ptx --split-input-file --verify-diagnostics

// Ops and forms outside the PTX target's subset get a diagnostic naming them; nothing is dropped.

llvm.func @float_math(%a: f32) attributes {nvvm.kernel} {
  // expected-error@+1 {{'llvm.fadd' is not supported by the PTX target}}
  %b = llvm.fadd %a, %a : f32
  llvm.return
}

// -----

// A device function's values cross calls in .param variables, which hold no predicates.
// expected-error@+1 {{device function @helper: an i1 value crosses a call: .param variables hold no predicates}}
llvm.func @helper(%p: i1) {
  llvm.return
}

// -----

// expected-error@+1 {{llvm.func @ext is called but has no body: the PTX target emits no external declarations}}
llvm.func @ext()
llvm.func @caller() attributes {nvvm.kernel} {
  llvm.call @ext() : () -> ()
  llvm.return
}


// -----

// expected-error@+1 {{global @g is in address space 1}}
llvm.mlir.global internal @g() {addr_space = 1 : i32} : i32

// -----

llvm.func @tmem_load(%t: i32) attributes {nvvm.kernel} {
  %p = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  // expected-error@+1 {{loads and stores through !llvm.ptr<6> are not supported. Tensor Memory is accessed with tcgen05.ld/st only}}
  %v = llvm.load %p : !llvm.ptr<6> -> i32
  llvm.return
}

// -----

llvm.func @atomic(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
  // expected-error@+1 {{atomic loads are not supported}}
  %v = llvm.load %p atomic monotonic <alignment = 4> : !llvm.ptr<1> -> i32
  llvm.return
}

// -----

llvm.func @two_indices(%p: !llvm.ptr<1>, %i: i32) attributes {nvvm.kernel} {
  // expected-error@+1 {{getelementptr with 2 indices (the PTX target supports one)}}
  %q = llvm.getelementptr %p[%i, 1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.array<4 x i32>
  llvm.return
}

// -----

// expected-error@+1 {{kernel parameter 0 has type vector<4xi32>; the PTX target takes integers}}
llvm.func @vector_param(%v: vector<4xi32>) attributes {nvvm.kernel} {
  llvm.return
}

// -----

// expected-error@+1 {{kernel @returns returns i32; PTX kernels return nothing}}
llvm.func @returns() -> i32 attributes {nvvm.kernel} {
  %c = llvm.mlir.constant(0 : i32) : i32
  // expected-error@+1 {{'llvm.return': kernels return no value}}
  llvm.return %c : i32
}

// -----

// (nvvm.cluster_dim is .reqnctapercluster: tests/filecheck/ptx/cluster.mlir)
// expected-error@+1 {{function attribute 'nvvm.cluster_max_blocks' is not supported by the PTX target}}
llvm.func @cluster() attributes {nvvm.kernel, nvvm.cluster_max_blocks = 8 : i32} {
  llvm.return
}

// -----

llvm.func @dynamic_offset(%t: i32, %o: i64) attributes {nvvm.kernel} {
  %p = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  // expected-error@+1 {{the half-split offset must come from a constant}}
  %v = nvvm.tcgen05.ld %p, %o shape = shape_16x32bx2 : vector<1xi32>
  llvm.return
}


// -----

// An unreachable block is not emitted, but an op outside the subset there is still reported.
llvm.func @dead_float(%out: !llvm.ptr<1>, %a: f32) attributes {nvvm.kernel} {
  llvm.return
^dead:
  // expected-error@+1 {{'llvm.fadd' is not supported by the PTX target}}
  %b = llvm.fadd %a, %a : f32
  llvm.br ^dead
}
