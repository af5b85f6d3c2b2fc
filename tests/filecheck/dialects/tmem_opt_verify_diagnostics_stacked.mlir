// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// As in MLIR, stacked `@below` annotations all name the next line without an annotation, and
// stacked `@above` annotations the last one (a plain comment line counts as such a line).

func.func @k(%s: !llvm.ptr<3>) {
  // expected-error@below {{got 48}}
  // expected-error@below {{got 17}}
  tcgen05.alloc %s, 48 : !llvm.ptr<3>  tcgen05.alloc %s, 17 : !llvm.ptr<3>
  tcgen05.alloc %s, 50 : !llvm.ptr<3>  tcgen05.alloc %s, 51 : !llvm.ptr<3>
  // expected-error@above {{got 50}}
  // expected-error@above {{got 51}}
  func.return
}
