// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `tile::bitcast<U>` reinterprets each element's bits: arith.bitcast between tile types.
#include <tile/tile.hpp>

TILE_KERNEL void bits(tile::Tensor<uint32_t, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::bitcast<uint32_t>(tile::load_tile_like(x, z)));
}

// CHECK-LABEL: func.func @bits(
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<64xf32>
// CHECK: %[[B:.*]] = arith.bitcast %[[T]] : tensor<64xf32> to tensor<64xi32>
// CHECK: tile.store %[[B]]
