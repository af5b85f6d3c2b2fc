// fuzz finding (issue 14): round-trip [generic] the generic print does not parse: _ error: nesting deeper than _ levels of brackets, braces and regions is not supported
"test.op"() {a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} : () -> ()


func.func @vector_param(%v: vector<4xi32>) attributes {tcgen05.kernel} {
  func.return
}
