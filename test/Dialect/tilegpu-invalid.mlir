// The tilegpu dialect's verifiers reject malformed layouts and accesses.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @store_to_shared(%x: !tile.view<?xf32>, %t: tensor<128xf32, #L>, %i: index) {
  // expected-error @+1 {{cannot store through a view that is not exclusive}}
  tilegpu.global_store %t, %x[%i] bounds [%i] {vector = 4 : i32} : tensor<128xf32, #L>, !tile.view<?xf32>
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [16], warpsPerBlock = [1], order = [0]>
func.func @lanes(%t: tensor<128xf32, #L>) {
  return
}

// -----

// expected-error @+1 {{order must be a permutation of the axes}}
#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [1, 1], order = [1, 1]>
func.func @order(%t: tensor<32x64xf32, #L>) {
  return
}

// -----

// expected-error @+1 {{blocked layout lists must all have the tile's rank}}
#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @ranks(%t: tensor<128xf32, #L>) {
  return
}

// -----

// expected-error @+1 {{layout sizes must be powers of two}}
#L = #tilegpu.blocked<sizePerThread = [3], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @pow2(%t: tensor<96xf32, #L>) {
  return
}

// -----

func.func @no_layout(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{the tile has no distributed layout; run layout assignment first}}
  %t = tilegpu.global_load %x[%i] bounds [%i] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [1, 1], order = [1, 0]>
func.func @bounds_count(%x: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{expected one offset and one bound per axis of the view}}
  %t = tilegpu.global_load %x[%i, %i] bounds [%i] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<32x64xf32, #L>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [1, 1], order = [1, 0]>
func.func @starts_count(%z: !tile.view<32x64xf32, exclusive>, %t: tensor<32x64xf32, #L>, %i: index) {
  // expected-error @+1 {{expected no starts or one start per axis of the view}}
  tilegpu.global_store %t, %z[%i, %i] starts [%i] bounds [%i, %i] {vector = 4 : i32} : tensor<32x64xf32, #L>, !tile.view<32x64xf32, exclusive>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @element_type(%x: !tile.view<?xf16>, %i: index) {
  // expected-error @+1 {{tile and view element types differ}}
  %t = tilegpu.global_load %x[%i] bounds [%i] {vector = 4 : i32} : !tile.view<?xf16> -> tensor<128xf32, #L>
  return
}

// -----

func.func @vector_positive(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{attribute 'vector' failed to satisfy constraint}}
  %t = tilegpu.global_load %x[%i] bounds [%i] {vector = 0 : i32} : !tile.view<?xf32> -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
  return
}

// -----

// The warps of a tile program are a power of two from 1 to 32 (layouts divide by them).
// expected-error @+1 {{'tilegpu.num_warps' must be a power of two between 1 and 32}}
func.func @zero_warps() attributes {tilegpu.num_warps = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.num_warps' must be a power of two between 1 and 32}}
func.func @three_warps() attributes {tilegpu.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{a linear layout has 5 lane bases, got 4}}
#L = #tilegpu.linear<register = [[1]], lane = [[2], [4], [8], [16]], warp = []>
func.func @linear_lanes(%t: tensor<64xf32, #L>) {
  return
}

// -----

// expected-error @+1 {{every basis of a linear layout has the tile's rank}}
#L = #tilegpu.linear<register = [[0, 1]], lane = [[2], [4], [8], [16], [32]], warp = []>
func.func @linear_ranks(%t: tensor<1x64xf32, #L>) {
  return
}

// -----

// expected-error @+1 {{slice dim 2 is not an axis of the parent}}
#L = #tilegpu.slice<dim = 2, parent = #tilegpu.linear<register = [[0, 1]], lane = [[0, 2], [0, 4], [0, 8], [0, 16], [1, 0]], warp = []>>
func.func @linear_slice(%t: tensor<2xf32, #L>) {
  return
}
