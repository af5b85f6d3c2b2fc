// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// Parse errors are diagnostics at the offending token, like verifier errors.

func.func @k(%a: i32) {
  // expected-error@+1 {{Expected `shape_16x64b`, `shape_16x128b`, `shape_16x256b`, `shape_32x32b`, or `shape_16x32bx2`.}}
  %r = tcgen05.ld %a shape_16x99b x1 : vector<1xi32>
  func.return
}

// -----

// num is x1, x2, x4, ..., x128: x3 and x256 are not nums.
func.func @k(%a: i32) {
  // expected-error@+1 {{Expected `x1`, `x2`, `x4`, `x8`, `x16`, `x32`, `x64`, or `x128`.}}
  %r = tcgen05.ld %a shape_16x64b x3 : vector<3xi32>
  func.return
}

// -----

func.func @k(%a: i32, %v: vector<256xi32>) {
  // expected-error@+1 {{Expected `x1`, `x2`, `x4`, `x8`, `x16`, `x32`, `x64`, or `x128`.}}
  tcgen05.st %v, %a shape_32x32b x256 : vector<256xi32>
  func.return
}

// -----

func.func @k() {
  // expected-error@+1 {{Expected `load`, or `store`.}}
  tcgen05.wait both
  func.return
}

// -----

func.func @k() {
  // expected-error@+1 {{Expected `before_thread_sync`, or `after_thread_sync`.}}
  tcgen05.fence before
  func.return
}

// -----

func.func @k(%s: !llvm.ptr<3>) {
  // expected-error@+1 {{Integer value 99999999999 is out of range for type i32}}
  tcgen05.alloc %s, 99999999999 : !llvm.ptr<3>
  func.return
}

// -----

// A missing type after the colon: reported at the token where a type was expected.
func.func @k(%a: i32) {
  %r = tcgen05.ld %a shape_32x32b x1 :
  // expected-error@+1 {{type expected}}
  func.return
}

// -----

// A missing closing bracket of a TMEM buffer type is reported where the parser noticed.
func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]
  // expected-error@+1 {{'>' expected}}
  func.return
}
