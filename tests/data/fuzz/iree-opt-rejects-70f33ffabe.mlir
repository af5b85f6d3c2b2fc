// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ attribute must be integer constant


// (nvvm.cluster_dim is .reqnctapercluster: tests/filecheck/ptx/cluster.mlir)
llvm.func @cluster() attributes {nvvm.kernel, nvvm.cluster_max_blocks = 8 : f64} {
  llvm.return
}

