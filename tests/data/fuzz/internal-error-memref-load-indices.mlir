// fuzz finding (issue 14): internal-error [parse] xDSL's memref.load verifier raised a bare Exception

// memref and vector memory access: a memref is a bare pointer to its first element
// (!llvm.ptr<1> for global buffers, !llvm.ptr<3> for shared memory); indices are linearized
// with the static strides (xDSL's helpers from convert-memref-to-ptr), plus a strided
// layout's static offset, into one getelementptr. Vector accesses carry the element's
// alignment (all a memref access is known to have). A shared memref.global becomes an
// addr_space 3 llvm.mlir.global (an !llvm.array when it has more than one element).

"memref.global"() <{sym_name = "tile", sym_visibility = "private", type = memref<4x8xf32, 3>, initial_value}> : () -> ()

func.func @memory(%a: memref<4x8xi32>, %b: memref<?xf16, 1>, %s: memref<8xi32, strided<[2], offset: 3>>) attributes {tcgen05.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.load %a[%c1, %c2] : memref<4x8xi32>
  memref.store %x, %a[%c2, %c1] : memref<4x8xi32>
  %h = vector.load %b[%c2] : memref<?xf16, 1>, vector<8xf16>
  vector.store %h, %b[%c0] : memref<?xf16, 1>, vector<8xf16>
  %y = memref.load %s[] : memref<8xi32, strided<[2], offset: 3>>
  memref.store %y, %s[%c0] : memref<8xi32, strided<[2], offset: 3>>
  %t = memref.get_global @tile : memref<4x8xf32, 3>
  %f = memref.load %t[%c1, %c1] : memref<4x8xf32, 3>
  %v = vector.load %t[%c2, %c0] : memref<4x8xf32, 3>, vector<4xf32>
  vector.store %v, %t[%c0, %c0] : memref<4x8xf32, 3>, vector<4xf32>
  memref.store %f, %t[%c0, %c0] : memref<4x8xf32, 3>
  func.return
}
