// fuzz finding (issue 14): iree-opt-rejects [nvvm] integer value too large


llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<18446744073709551616 x i8>
llvm.func @k(%g: !llvm.ptr<1>, %n: i32, %bm: i16) attributes {nvvm.kernel} {
  %s = llvm.mlir.addressof @tile : !llvm.ptr<3>
  nvvm.cp.async.bulk.global.shared.cta %g, %s, %n byte_mask = %bm : !llvm.ptr<1>, !llvm.ptr<3>
  llvm.return
}
