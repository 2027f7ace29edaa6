// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// Math functions map to `math`, comparisons to `arith.cmpf` and where to `arith.select`.
#include <tile/tile.hpp>

TILE_KERNEL void softplus(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  auto t = tile::load_tile_like(x, z);
  z.store(tile::where(t > 20.0f, t, tile::log(1.0f + tile::exp(t))));
}

// CHECK-LABEL: func.func @softplus(
// CHECK: arith.cmpf ogt, {{.*}} : tensor<64xf32>
// CHECK: math.exp {{.*}} : tensor<64xf32>
// CHECK: math.log {{.*}} : tensor<64xf32>
// CHECK: arith.select {{.*}} : tensor<64xi1>, tensor<64xf32>
