// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `tile::cumsum` of f16 accumulates in float and rounds each output, as the CPU reference:
// extf, a tile.scan that adds f32, truncf.
#include <tile/tile.hpp>

TILE_KERNEL void prefix(tile::Tensor<tile::f16, 4, 32>& z,
                        const tile::Tensor<tile::f16, tile::dyn, tile::dyn>& x) {
  z.store(tile::cumsum<1>(tile::load_tile_like(x, z)));
}

// CHECK-LABEL: func.func @prefix(
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<4x32xf16>
// CHECK: %[[W:.*]] = arith.extf %[[T]] : tensor<4x32xf16> to tensor<4x32xf32>
// CHECK: %[[S:.*]] = tile.scan %[[W]] axis 1 : tensor<4x32xf32> -> tensor<4x32xf32> {
// CHECK: arith.addf
// CHECK: %[[N:.*]] = arith.truncf %[[S]] : tensor<4x32xf32> to tensor<4x32xf16>
// CHECK: tile.store %[[N]]
