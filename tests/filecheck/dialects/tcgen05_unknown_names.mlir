// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Unknown ops, attributes, types and properties are errors at their location, never dropped.

func.func @k(%a: i32) {
  // expected-error@+1 {{unregistered operation 'tcgen05.frobnicate'}}
  tcgen05.frobnicate %a
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{unregistered operation 'tcgen05.gemm'}}
  "tcgen05.gemm"(%a) : (i32) -> ()
  func.return
}

// -----

// expected-error@+1 {{'tcgen05.bogus' is not registered}}
"test.op"() {l = #tcgen05.bogus<1>} : () -> ()

// -----

// expected-error@+1 {{'tcgen05.frob' is not registered}}
"test.op"() : () -> !tcgen05.frob<4x4xf32>

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{property 'bogus' is not defined by the operation 'tcgen05.ld'}}
  %r = "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x64b>, num = #tcgen05<num x1>, bogus = 1}> : (i32) -> vector<1xi32>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{property 'num' expected in operation 'tcgen05.ld'}}
  %r = "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x64b>}> : (i32) -> vector<1xi32>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{3 : i32 should be of base attribute tcgen05.shape}}
  %r = "tcgen05.ld"(%a) <{shape = 3 : i32, num = #tcgen05<num x1>}> : (i32) -> vector<1xi32>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{Expected 1 operand, but got 2}}
  %r = "tcgen05.ld"(%a, %a) <{shape = #tcgen05<shape shape_16x64b>, num = #tcgen05<num x1>}> : (i32, i32) -> vector<1xi32>
  func.return
}

// -----

// pack is not a property of upstream's nvvm.tcgen05.st (it is unpack there).
llvm.func @k(%t: !llvm.ptr<6>, %v: vector<1xi32>) {
  // expected-error@+1 {{property 'pack' is not defined by the operation 'nvvm.tcgen05.st'}}
  "nvvm.tcgen05.st"(%t, %v) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>, pack}> : (!llvm.ptr<6>, vector<1xi32>) -> ()
  llvm.return
}

// -----

func.func @k() {
  // expected-error@+1 {{unregistered operation 'nvvm.wgmma.fence.aligned'}}
  nvvm.wgmma.fence.aligned
  func.return
}
