// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// cta_group is 1 or 2 on alloc, dealloc and relinquish_alloc_permit.

func.func @k(%s: !llvm.ptr<3>) {
  // expected-error@+1 {{cta_group must be 1 or 2, got 3}}
  tcgen05.alloc %s, 32 cta_group(3) : !llvm.ptr<3>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{cta_group must be 1 or 2, got 0}}
  tcgen05.dealloc %a, 32 cta_group(0)
  func.return
}

// -----

func.func @k() {
  // expected-error@+1 {{cta_group must be 1 or 2, got 4}}
  tcgen05.relinquish_alloc_permit cta_group(4)
  func.return
}

// -----

func.func @k() {
  // expected-error@+1 {{cta_group must be 1 or 2, got -1}}
  "tcgen05.relinquish_alloc_permit"() <{cta_group = -1 : i32}> : () -> ()
  func.return
}
