// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// Nested counted loops: the inner scf.for carries the tile through the outer one's iter_arg,
// and the inner bound may depend on the outer induction variable.
#include <tile/tile.hpp>

TILE_KERNEL void triangle(tile::Tensor<float, 32, 32>& z,
                          const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto tiles = x.partition<32, 32>();
  tile::Tile<float, 32, 32> acc;
  for (int64_t i = 0; i < tile::num_tiles(tiles, 0); ++i)
    for (int64_t j = 0; j <= i; ++j)
      acc += tiles.load(i, j);
  z.store(acc);
}

// CHECK-LABEL: func.func @triangle(
// CHECK: %[[OUT:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (tensor<32x32xf32>) {
// CHECK:   %[[II:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:   %[[UBI:.*]] = arith.index_cast %[[II]] : i64 to index
// CHECK:   %[[UB:.*]] = arith.addi %[[UBI]], %{{.*}} : index
// CHECK:   %[[IN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (tensor<32x32xf32>) {
// CHECK:     %[[T:.*]] = tile.load %arg1
// CHECK:     %[[S:.*]] = arith.addf %[[B]], %[[T]]
// CHECK:     scf.yield %[[S]] : tensor<32x32xf32>
// CHECK:   }
// CHECK:   scf.yield %[[IN]] : tensor<32x32xf32>
// CHECK: }
// CHECK: tile.store %[[OUT]], %arg0
