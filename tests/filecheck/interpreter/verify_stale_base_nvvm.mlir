// RUN: tmem-run %s --arg i32:1 --verify-diagnostics
// RUN: sed -e 's/st %%p_old,/st %%p_new,/' %s | tmem-run - --arg i32:1 | filecheck %s --check-prefix=TWIN

// Upstream NVVM: warp 0 allocates, frees, and allocates again at the same column; the store
// goes through the first allocation's base. The address is numerically the new base, so only
// provenance sees that it derives from the freed allocation. The legal twin (sed) stores
// through the reloaded base and reads back 7.
// TWIN: arg0: int32[1] = [7]

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %c7 = llvm.mlir.constant(7 : i32) : i32
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  // expected-note@+1 {{the allocation of 32 columns at column 0 was made here}}
  nvvm.tcgen05.alloc %s, %c32 : !llvm.ptr<3>, i32
  %old = llvm.load %s : !llvm.ptr<3> -> i32
  %p_old = llvm.inttoptr %old : i32 to !llvm.ptr<6>
  // expected-note@+1 {{it was freed here}}
  nvvm.tcgen05.dealloc %p_old, %c32 : !llvm.ptr<6>, i32
  // expected-note@+1 {{column 0 now belongs to the allocation of 32 columns made here}}
  nvvm.tcgen05.alloc %s, %c32 : !llvm.ptr<3>, i32
  %new = llvm.load %s : !llvm.ptr<3> -> i32
  %p_new = llvm.inttoptr %new : i32 to !llvm.ptr<6>
  %v = llvm.mlir.undef : vector<1xi32>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %v1 = llvm.insertelement %c7, %v[%c0 : i32] : vector<1xi32>
  // expected-error@+1 {{nvvm.tcgen05.st of warp 0 accesses TMEM column 0 through a stale base: the allocation of 32 columns at column 0 the address derives from was freed and its columns allocated again}}
  nvvm.tcgen05.st %p_old, %v1 shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.wait <store>
  %r = nvvm.tcgen05.ld %p_new shape = shape_32x32b : vector<1xi32>
  nvvm.tcgen05.wait <load>
  %e = llvm.extractelement %r[%c0 : i32] : vector<1xi32>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %is0 = llvm.icmp "eq" %tid, %c0 : i32
  llvm.cond_br %is0, ^store, ^done
^store:
  llvm.store %e, %out : i32, !llvm.ptr<1>
  llvm.br ^done
^done:
  nvvm.tcgen05.dealloc %p_new, %c32 : !llvm.ptr<6>, i32
  llvm.return
}
