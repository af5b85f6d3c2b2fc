// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// The annotation forms MLIR accepts: on the same line, @+N, @-N, @above and @below.

func.func @k(%s: !llvm.ptr<3>) {
  tcgen05.alloc %s, 48 : !llvm.ptr<3> // expected-error {{got 48}}
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>) {
  // expected-error@+2 {{got 17}}
  tcgen05.wait load
  tcgen05.alloc %s, 17 : !llvm.ptr<3>
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>) {
  tcgen05.alloc %s, 18 : !llvm.ptr<3>
  tcgen05.wait store
  // expected-error@-2 {{got 18}}
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>) {
  tcgen05.alloc %s, 19 : !llvm.ptr<3>
  // expected-error@above {{got 19}}
  // expected-error@below {{got 20}}
  tcgen05.alloc %s, 20 : !llvm.ptr<3>
  func.return
}
