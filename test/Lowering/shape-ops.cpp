// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// The shape functions become the tile op of the same name: the result type carries the new
// shape, permute its permutation, cat its axis, extract one run-time index per axis.
#include <tile/tile.hpp>

TILE_KERNEL void shapes(tile::Tensor<float, 8, 16>& z,
                        const tile::Tensor<float, tile::dyn, tile::dyn>& x, int64_t k) {
  auto t = x.partition<16, 4>().load(tile::block_id(0), 0);     // 16 x 4
  auto p = tile::permute<1, 0>(t);                              // 4 x 16
  auto c = tile::cat<0>(p, tile::transpose(t));                 // 8 x 16
  auto r = tile::reshape<8, 1, 16>(c);                          // 8 x 1 x 16
  auto b = tile::broadcast<2, 8, 4, 16>(r);                     // 2 x 8 x 4 x 16
  auto e = tile::extract<1, 8, 1, 16>(b, 0, 0, k, 0);           // 1 x 8 x 1 x 16
  z.store(tile::reshape<8, 16>(e));
}

// CHECK-LABEL: func.func @shapes(
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<16x4xf32>
// CHECK: %[[P:.*]] = tile.permute %[[T]] [1, 0] : tensor<16x4xf32> -> tensor<4x16xf32>
// CHECK: %[[Q:.*]] = tile.permute %[[T]] [1, 0] : tensor<16x4xf32> -> tensor<4x16xf32>
// CHECK: %[[C:.*]] = tile.cat %[[P]], %[[Q]] axis 0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<8x16xf32>
// CHECK: %[[R:.*]] = tile.reshape %[[C]] : tensor<8x16xf32> -> tensor<8x1x16xf32>
// CHECK: %[[B:.*]] = tile.broadcast %[[R]] : tensor<8x1x16xf32> -> tensor<2x8x4x16xf32>
// CHECK: %[[E:.*]] = tile.extract %[[B]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<2x8x4x16xf32> -> tensor<1x8x1x16xf32>
// CHECK: tile.reshape %[[E]] : tensor<1x8x1x16xf32> -> tensor<8x16xf32>
