// RUN: tmem-opt %s --split-input-file --verify-diagnostics

// pack::16b only on ld, unpack::16b only on st.

func.func @k(%a: i32) {
  // expected-error@+1 {{unpack::16b is only valid on tcgen05.st; tcgen05.ld takes pack::16b}}
  %r = tcgen05.ld %a shape_32x32b x1 unpack : vector<1xi32>
  func.return
}

// -----

func.func @k(%a: i32, %v: vector<1xi32>) {
  // expected-error@+1 {{pack::16b is only valid on tcgen05.ld; tcgen05.st takes unpack::16b}}
  tcgen05.st %v, %a shape_16x64b x1 pack : vector<1xi32>
  func.return
}

// -----

// Also in the generic form.
func.func @k(%a: i32) {
  // expected-error@+1 {{unpack::16b is only valid on tcgen05.st}}
  %r = "tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x128b>, num = #tcgen05<num x1>, unpack}> : (i32) -> vector<2xi32>
  func.return
}
