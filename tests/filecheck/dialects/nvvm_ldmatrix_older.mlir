// RUN: tmem-opt %s | filecheck %s

// The spellings of older MLIR eras tmem-opt reads (Triton 3.9 prints the attribute dictionary;
// older MLIR had neither shape nor eltType) and prints in today's form.

// CHECK-LABEL: llvm.func @older
llvm.func @older(%p: !llvm.ptr<3>) {
  // CHECK: nvvm.ldmatrix %{{.*}}, num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  %a = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: nvvm.ldmatrix %{{.*}}, num = 2, layout = <col>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
  %b = nvvm.ldmatrix %p {num = 2 : i32, layout = #nvvm.mma_layout<col>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
  llvm.return
}
