// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// tile::f8e4m3 and tile::f8e5m2 lower to f8E4M3FN and f8E5M2; their arithmetic stays on f8 in
// the tile IR (tile-widen-f8 later computes it in f32), sums widen to f32, and an mma takes a
// mixed pair of f8 inputs.
#include <tile/tile.hpp>

TILE_KERNEL void f8(tile::Tensor<float, 16, 16>& c, const tile::Tensor<tile::f8e4m3, 16, 32>& a,
                    const tile::Tensor<tile::f8e5m2, 32, 16>& b, tile::Tensor<tile::f8e4m3, 16>& s) {
  auto x = a.load();
  s.store(tile::sum<1>(x + x));
  c.store(tile::mma(x, b.load(), tile::zeros<float, 16, 16>()));
}

// CHECK-LABEL: func.func @f8(
// CHECK-SAME: !tile.view<16x32xf8E4M3FN>, %{{.*}}: !tile.view<32x16xf8E5M2>
// CHECK: %[[X:.*]] = tile.load %arg1{{.*}} -> tensor<16x32xf8E4M3FN>
// CHECK: %[[D:.*]] = arith.addf %[[X]], %[[X]] : tensor<16x32xf8E4M3FN>
// CHECK: %[[W:.*]] = arith.extf %[[D]] : tensor<16x32xf8E4M3FN> to tensor<16x32xf32>
// CHECK: tile.reduce %[[W]] axis 1
// CHECK: arith.truncf %{{.*}} : tensor<16xf32> to tensor<16xf8E4M3FN>
// CHECK: tile.mma %[[X]], %{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E5M2>, tensor<16x16xf32> -> tensor<16x16xf32>
