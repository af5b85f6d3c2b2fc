// fuzz finding (issue 14): ptxas-rejects [pipeline-ptx] ptxas <emitted PTX>, line _; error   : Non-external variable _ has incomplete type


llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i3