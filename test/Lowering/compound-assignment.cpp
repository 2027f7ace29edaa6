// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `t += x` and `t *= s` rebind the tile variable to the updated value.
#include <tile/tile.hpp>

TILE_KERNEL void acc(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  auto t = z.load();
  t += tile::load_tile_like(x, z);
  t *= 3.0f;
  z.store(t);
}

// CHECK-LABEL: func.func @acc(
// CHECK: %[[T:.*]] = tile.load %arg0
// CHECK: %[[X:.*]] = tile.load %arg1
// CHECK: %[[S:.*]] = arith.addf %[[T]], %[[X]]
// CHECK: %[[M:.*]] = arith.mulf %[[S]], %{{.*}}
// CHECK: tile.store %[[M]], %arg0
