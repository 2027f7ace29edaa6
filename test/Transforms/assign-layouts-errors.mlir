// Layout assignment rejects what it cannot lay out.
// RUN: tilecc-opt %s --tile-assign-layouts -split-input-file -verify-diagnostics

// expected-error @+1 {{'tilegpu.num_warps' must be a power of two between 1 and 32}}
func.func @bad_warps(%t: tensor<128xf32>) attributes {tilegpu.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{tile values need a static shape of rank 1 or more, got 'tensor<?xf32>'}}
func.func @dynamic_tile(%t: tensor<?xf32>) {
  return
}

// -----

// expected-error @+1 {{tile extents must be powers of two (layouts map bits), got 'tensor<4x3xf32>'}}
func.func @odd_tile(%t: tensor<4x3xf32>) {
  return
}
