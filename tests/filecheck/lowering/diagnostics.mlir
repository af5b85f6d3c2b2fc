// RUN: tmem-opt %s -p convert-tcgen05-to-nvvm --split-input-file --verify-diagnostics

// What convert-tcgen05-to-nvvm cannot lower is reported at the op, before anything changes;
// nothing is dropped silently.

llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32

func.func @tiles(%x: f32) attributes {tcgen05.kernel} {
  %v = vector.broadcast %x : f32 to vector<32xf32>
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %buf = tcgen05.decl_buffer %base : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  // expected-error@+1 {{'tcgen05.tile_store' is a warpgroup tile op: run tmem-assign-lanes first to turn it into per-warp tcgen05.st}}
  tcgen05.tile_store %v, %buf [0, 0] [128, 32] : vector<32xf32>, !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]>
  // expected-error@+1 {{'tcgen05.tile_load' is a warpgroup tile op: run tmem-assign-lanes first to turn it into per-warp tcgen05.ld}}
  %w = tcgen05.tile_load %buf [0, 0] [128, 32] : !tcgen05.tmem<128x32xf32, S[(128, 32) : (1@TLane, 1@TCol)]> -> vector<32xf32>
  func.return
}

// -----

func.func @float_math(%a: f32, %out: memref<4xf32>) attributes {tcgen05.kernel} {
  // expected-error@+1 {{'arith.addf' is outside the tcgen05-level op set; convert-tcgen05-to-nvvm cannot lower it}}
  %b = arith.addf %a, %a : f32
  func.return
}

// -----

func.func private @helper() -> ()

func.func @calls() attributes {tcgen05.kernel} {
  // expected-error@+1 {{'func.call' is outside the tcgen05-level op set}}
  func.call @helper() : () -> ()
  func.return
}

// -----

func.func @two_d(%x: i32) attributes {tcgen05.kernel} {
  // expected-error@+1 {{type vector<2x2xi32>: only 1-D fixed-size vectors can be lowered}}
  %v = vector.broadcast %x : i32 to vector<2x2xi32>
  func.return
}

// -----

// expected-error@+1 {{parameter 0: memref<4x?xi32> has a dynamic inner dimension (a bare pointer carries no sizes)}}
func.func @dynamic_inner(%m: memref<4x?xi32>) attributes {tcgen05.kernel} {
  func.return
}

// -----

// expected-error@+1 {{parameter 0: a parameter memref must be in global memory, got memref<4xi32, 3 : i64>}}
func.func @shared_param(%m: memref<4xi32, 3>) attributes {tcgen05.kernel} {
  func.return
}

// -----

// expected-error@+1 {{shared-memory global @init cannot have an initial value}}
"memref.global"() <{sym_name = "init", sym_visibility = "private", type = memref<1xi32, 3>, initial_value = dense<0> : tensor<1xi32>}> : () -> ()

// -----

// expected-error@+1 {{unknown kernel attribute 'tcgen05.cluster'}}
func.func @attrs() attributes {tcgen05.kernel, tcgen05.cluster = 2 : i32} {
  func.return
}

// -----

// expected-error@+1 {{kernel parameter 0 has type vector<4xi32>; kernel parameters are integers, index, floats, memrefs or !llvm.ptr (a tensor map)}}
func.func @vector_param(%v: vector<4xi32>) attributes {tcgen05.kernel} {
  func.return
}
