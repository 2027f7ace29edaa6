// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `tile::mma(a, b, acc)` is tile.mma; `tile::matmul(a, b)` is tile.mma onto a zero f32 tile.
// Batched rank-3 operands keep their batch axis.
#include <tile/tile.hpp>

TILE_KERNEL void products(tile::Tensor<float, 2, 16, 16>& z,
                          const tile::Tensor<tile::bf16, tile::dyn, tile::dyn, tile::dyn>& x) {
  auto a = x.partition<2, 16, 32>().load(tile::block_id(0), 0, 0);
  auto b = tile::permute<0, 2, 1>(a);
  auto once = tile::matmul(a, b);
  z.store(tile::mma(a, b, once));
}

// CHECK-LABEL: func.func @products(
// CHECK: %[[A:.*]] = tile.load {{.*}} -> tensor<2x16x32xbf16>
// CHECK: %[[B:.*]] = tile.permute %[[A]] [0, 2, 1] : tensor<2x16x32xbf16> -> tensor<2x32x16xbf16>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<2x16x16xf32>
// CHECK: %[[ONCE:.*]] = tile.mma %[[A]], %[[B]], %[[ZERO]] : tensor<2x16x32xbf16>, tensor<2x32x16xbf16>, tensor<2x16x16xf32> -> tensor<2x16x16xf32>
// CHECK: %[[TWICE:.*]] = tile.mma %[[A]], %[[B]], %[[ONCE]]
// CHECK: tile.store %[[TWICE]]
