// The verifiers of the reduction, scan and shape ops.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

func.func @broadcast_extent(%t: tensor<4x2xf32>) {
  // expected-error @+1 {{source axis 1 has extent 2, neither 1 nor the result's 8}}
  %b = tile.broadcast %t : tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reshape_size(%t: tensor<4x2xf32>) {
  // expected-error @+1 {{a tile of 8 elements cannot take a shape of 16 elements}}
  %r = tile.reshape %t : tensor<4x2xf32> -> tensor<16xf32>
  return
}

// -----

func.func @permute_repeat(%t: tensor<4x2xf32>) {
  // expected-error @+1 {{perm is not a permutation of the axes}}
  %p = tile.permute %t [0, 0] : tensor<4x2xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @cat_extent(%t: tensor<4x2xf32>) {
  // expected-error @+1 {{the result must double the operands' extent along the axis}}
  %c = tile.cat %t, %t axis 1 : tensor<4x2xf32>, tensor<4x2xf32> -> tensor<8x2xf32>
  return
}

// -----

func.func @extract_divides(%t: tensor<4x8xf32>, %i: index) {
  // expected-error @+1 {{result extent 3 does not divide source extent 8 on axis 1}}
  %e = tile.extract %t[%i, %i] : tensor<4x8xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_shape(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{result must be the operand's shape without axis 1}}
  %r = tile.reduce %t axis 1 : tensor<4x8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @reduce_rank1_scalar(%t: tensor<8xf32>) {
  // expected-error @+1 {{reducing a rank-1 tile gives a 'f32'}}
  %r = tile.reduce %t axis 0 : tensor<8xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @combiner_arity(%t: tensor<8xf32>) {
  // expected-error @+1 {{the combiner takes 2 arguments, has 3}}
  %r = tile.reduce %t axis 0 : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32, %c: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @combiner_yield(%t: tensor<8xf32>) {
  // expected-error @+1 {{the combiner yields 'i32' for operand 0}}
  %r = tile.reduce %t axis 0 : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    tile.yield %c : i32
  }
  return
}

// -----

func.func @scan_init(%t: tensor<8xf32>, %i: i32) {
  // expected-error @+1 {{init of type 'i32' differs from its operand's element type}}
  %r = tile.scan %t init(%i : i32) axis 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @scan_axis(%t: tensor<8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 1}}
  %r = tile.scan %t axis 2 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @mma_inner(%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{inner extents differ: a has 32, b has 16}}
  %r = tile.mma %a, %b, %c : tensor<16x32xf16>, tensor<16x8xf16>, tensor<16x8xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @mma_int(%a: tensor<16x16xi8>, %b: tensor<16x8xi8>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{inputs must both be f16, bf16 or f32, or both f8 (e4m3 or e5m2), got 'i8' and 'i8'}}
  %r = tile.mma %a, %b, %c : tensor<16x16xi8>, tensor<16x8xi8>, tensor<16x8xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @mma_acc(%a: tensor<16x16xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf16>) {
  // expected-error @+1 {{the accumulator must be f32, got 'f16'}}
  %r = tile.mma %a, %b, %c : tensor<16x16xf16>, tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  return
}
