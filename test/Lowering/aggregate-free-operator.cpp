// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// A free operator on a user's type is inlined like any device function: the struct it
// returns is built from its fields.
#include <tile/tile.hpp>

struct Scaled {
  float value;
};
inline Scaled operator*(Scaled x, float s) { return Scaled{x.value * s}; }

TILE_KERNEL void scale(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x,
                       float f) {
  Scaled w = Scaled{2.0f} * f;
  z.store(tile::load_tile_like(x, z) * w.value);
}
// CHECK-LABEL: func.func @scale
// CHECK: %[[W:.*]] = arith.mulf %cst, %arg2 : f32
// CHECK: %[[S:.*]] = tile.splat %[[W]]
// CHECK: arith.mulf %{{.*}}, %[[S]] : tensor<128xf32>
