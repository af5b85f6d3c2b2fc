// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// The half-split offset (immHalfSplitoff) is present iff the shape is 16x32bx2.

func.func @k(%a: i32) {
  // expected-error@+1 {{shape 16x32bx2 requires the half-split offset (immHalfSplitoff)}}
  %r = tcgen05.ld %a shape_16x32bx2 x1 : vector<1xi32>
  func.return
}

// -----

func.func @k(%a: i32, %v: vector<2xi32>) {
  // expected-error@+1 {{shape 16x32bx2 requires the half-split offset (immHalfSplitoff)}}
  tcgen05.st %v, %a shape_16x32bx2 x2 unpack : vector<2xi32>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{the half-split offset is only allowed with shape 16x32bx2, not 32x32b}}
  %r = tcgen05.ld %a, offset 16 shape_32x32b x1 : vector<1xi32>
  func.return
}

// -----

func.func @k(%a: i32) {
  // expected-error@+1 {{the half-split offset is only allowed with shape 16x32bx2, not 16x64b}}
  %r = tcgen05.ld %a, offset 16 shape_16x64b x1 : vector<1xi32>
  func.return
}

// -----

func.func @k(%a: i32, %v: vector<2xi32>) {
  // expected-error@+1 {{the half-split offset is only allowed with shape 16x32bx2, not 16x128b}}
  tcgen05.st %v, %a, offset 16 shape_16x128b x1 : vector<2xi32>
  func.return
}

// -----

func.func @k(%a: i32, %v: vector<4xi32>) {
  // expected-error@+1 {{the half-split offset is only allowed with shape 16x32bx2, not 16x256b}}
  tcgen05.st %v, %a, offset 0 shape_16x256b x1 : vector<4xi32>
  func.return
}

// -----

// Any offset is legal (ptxas accepts negative ones): the add wraps on the 32-bit address.
func.func @k(%a: i32) {
  %r = tcgen05.ld %a, offset -16 shape_16x32bx2 x1 : vector<1xi32>
  func.return
}
