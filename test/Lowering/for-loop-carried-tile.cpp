// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A counted `for` becomes scf.for over index bounds; the tile it accumulates is an iter_arg and
// the loop's result replaces the variable after it. The induction variable is converted to its
// C++ type inside the body.
#include <tile/tile.hpp>

template <int BM, int BN>
TILE_KERNEL void row_tiles(tile::Tensor<float, BM, BN>& z,
                           const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto tiles = x.partition<BM, BN>();
  tile::Tile<float, BM, BN> acc;
  for (int k = 0; k < tile::num_tiles(tiles, 1); ++k)
    acc = acc + tiles.load(tile::block_id(0), k);
  z.store(acc);
}
template void row_tiles<16, 32>(tile::Tensor<float, 16, 32>&,
                                const tile::Tensor<float, tile::dyn, tile::dyn>&);

// CHECK-LABEL: func.func @row_tiles_16_32(
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
// CHECK: %[[LB:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[N:.*]] = arith.ceildivsi
// CHECK: %[[UB:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[SUM:.*]] = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[ONE]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<16x32xf32>) {
// CHECK:   %[[K:.*]] = arith.index_cast %[[IV]] : index to i32
// CHECK:   %[[T:.*]] = tile.load %arg1[{{.*}}] : <?x?xf32> -> tensor<16x32xf32>
// CHECK:   %[[NEXT:.*]] = arith.addf %[[ACC]], %[[T]] : tensor<16x32xf32>
// CHECK:   scf.yield %[[NEXT]] : tensor<16x32xf32>
// CHECK: }
// CHECK: tile.store %[[SUM]], %arg0
