// fuzz finding (issue 14): iree-opt-rejects [nvvm] _ op attribute _ failed to satisfy constraint: _-bit signless integer attribute whose value is non-negative


llvm.mlir.global internal @g() {addr_space = -1 : i32} : i32

