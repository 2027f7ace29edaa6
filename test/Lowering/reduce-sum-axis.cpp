// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `tile::sum<1>` is a tile.reduce along axis 1 whose combiner adds; the axis is dropped from
// the result's shape.
#include <tile/tile.hpp>

TILE_KERNEL void row_sums(tile::Tensor<float, 16>& z,
                          const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = x.partition<16, 64>().load(tile::block_id(0), 0);
  z.store(tile::sum<1>(t));
}

// CHECK-LABEL: func.func @row_sums(
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<16x64xf32>
// CHECK: %[[S:.*]] = tile.reduce %[[T]] axis 1 : tensor<16x64xf32> -> tensor<16xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:   %[[C:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:   tile.yield %[[C]] : f32
// CHECK-NEXT: }
// CHECK: tile.store %[[S]]
