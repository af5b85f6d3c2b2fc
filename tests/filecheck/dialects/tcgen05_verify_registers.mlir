// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// The register value of tcgen05.ld/st is vector<(num * k) x i32>, k = 1, 2 or 4 by shape,
// and at most 128 registers per thread.

func.func @k(%a: i32) {
  // expected-error@+1 {{shape 16x64b x1 moves 1 registers per thread (num x 1), so the register value must be vector<1xi32>, got vector<2xi32>}}
  %r = tcgen05.ld %a shape_16x64b x1 : vector<2xi32>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{shape 16x128b x4 moves 8 registers per thread (num x 2), so the register value must be vector<8xi32>, got vector<4xi32>}}
  %r = tcgen05.ld %a shape_16x128b x4 : vector<4xi32>
  func.return
}

// -----

func.func @k(%a: i32, %v: vector<16xi32>) {
  // expected-error@+1 {{shape 16x256b x2 moves 8 registers per thread (num x 4), so the register value must be vector<8xi32>, got vector<16xi32>}}
  tcgen05.st %v, %a shape_16x256b x2 : vector<16xi32>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{so the register value must be vector<1xi32>, got vector<1xf32>}}
  %r = tcgen05.ld %a shape_32x32b x1 : vector<1xf32>
  func.return
}

// -----

func.func @k(%a: i32, %v: vector<2x2xi32>) {
  // expected-error@+1 {{so the register value must be vector<4xi32>, got vector<2x2xi32>}}
  tcgen05.st %v, %a shape_32x32b x4 : vector<2x2xi32>
  func.return
}

// -----

// 16x128b.x128 needs 256 registers.
func.func @k(%a: i32) {
  // expected-error@+1 {{shape 16x128b with num x128 needs 256 registers per thread (num x 2), more than the limit of 128}}
  %r = tcgen05.ld %a shape_16x128b x128 : vector<256xi32>
  func.return
}

// -----

// 16x256b.x64 needs 256 registers.
func.func @k(%a: i32, %v: vector<256xi32>) {
  // expected-error@+1 {{shape 16x256b with num x64 needs 256 registers per thread (num x 4), more than the limit of 128}}
  tcgen05.st %v, %a shape_16x256b x64 : vector<256xi32>
  func.return
}

// -----

// 16x256b.x128 needs 512 registers.
func.func @k(%a: i32) {
  // expected-error@+1 {{shape 16x256b with num x128 needs 512 registers per thread (num x 4), more than the limit of 128}}
  %r = tcgen05.ld %a shape_16x256b x128 pack : vector<512xi32>
  func.return
}

// -----

// A non-vector register type breaks the op's type constraint while the custom form parses.
func.func @k(%a: i32) {
  // expected-error@+1 {{'tcgen05.ld' op i32 should be of base attribute vector}}
  %r = tcgen05.ld %a shape_32x32b x1 : i32
  func.return
}
