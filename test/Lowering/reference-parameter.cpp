// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A device function's non-const reference parameter, and a local reference, name the caller's
// variable: assignments through them update it, also when the call is inside a loop (which
// then carries the variable).
#include <tile/tile.hpp>

template <int N>
void accumulate(tile::Tile<float, N>& acc, const tile::Tile<float, N>& t) {
  acc += t;
}

TILE_KERNEL void sum_tiles(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x,
                           int n) {
  auto tiles = x.partition<64>();
  tile::Tile<float, 64> acc;
  for (int k = 0; k < n; ++k)
    accumulate(acc, tiles.load(k));
  auto& out = acc;
  out = out * 0.5f;
  z.store(acc);
}

// CHECK-LABEL: func.func @sum_tiles(
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32>) {
// CHECK:   %[[T:.*]] = tile.load %arg1
// CHECK:   %[[NEXT:.*]] = arith.addf %[[ACC]], %[[T]]
// CHECK:   scf.yield %[[NEXT]] : tensor<64xf32>
// CHECK: }
// CHECK: %[[HALF:.*]] = arith.mulf %[[SUM]], %{{.*}}
// CHECK: tile.store %[[HALF]], %arg0
