// RUN: tmem-opt %s -t ptx --split-input-file --verify-diagnostics

// tcgen05.mma forms the target cannot emit are reported at the op, as ptxas would reject them.

func.func @k(%d: i32, %a: i64, %b: i64, %at: i32, %en: i1) attributes {tcgen05.kernel} {
  %id = tcgen05.instr_desc mxf4nvf4 m 128 n 256 a e2m1 b e2m1 scale ue4m3
  // expected-error@+1 {{tcgen05.mma kind::mxf4nvf4.scale_vec::4X needs PTX ISA 8.7, the target is 8.6}}
  tcgen05.mma mxf4nvf4 %d, %a, %b, %id, %en scale_a %at scale_b %at scale_vec x4 : i64
  func.return
}

// -----

llvm.func @k(%t: i32, %a: i64, %b: i64, %i: i32, %en: i1) attributes {nvvm.kernel} {
  %d = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %s = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  // expected-error@+1 {{kind::mxf4nvf4 takes block16, block32, scale_vec::2X, scale_vec::4X; got no scale_vec qualifier}}
  nvvm.tcgen05.mma.block_scale %d, %a, %b, %i, %en, %s, %s, kind = mxf4nvf4, cta_group = <cta_1> : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  llvm.return
}

// -----

llvm.func @k(%t: i32, %a: i64, %b: i64, %i: i32, %en: i1, %scale: i64) attributes {nvvm.kernel} {
  %d = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  // expected-error@+1 {{scale-input-d must be a constant (PTX takes an immediate)}}
  nvvm.tcgen05.mma %d, %a, %b, %i, %en scale = %scale, kind = f16, cta_group = <cta_1> : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  llvm.return
}
