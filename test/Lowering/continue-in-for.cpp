// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `continue` keeps a counted `for` an scf.for: the statements after it move into the branch
// of the `if` that does not continue.
#include <tile/tile.hpp>

TILE_KERNEL void even_tiles(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x,
                            int n) {
  auto tiles = x.partition<64>();
  tile::Tile<float, 64> acc;
  for (int k = 0; k < n; ++k) {
    if (k % 2 == 1)
      continue;
    acc = acc + tiles.load(k);
  }
  z.store(acc);
}

// CHECK-LABEL: func.func @even_tiles(
// CHECK: %[[SUM:.*]] = scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32>) {
// CHECK:   %[[K:.*]] = arith.index_cast %[[IV]] : index to i32
// CHECK:   %[[ODD:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:   %[[R:.*]]:2 = scf.if %[[ODD]] -> (tensor<64xf32>, i1) {
// CHECK:     scf.yield %[[ACC]], %{{.*}} : tensor<64xf32>, i1
// CHECK:   } else {
// CHECK:     %[[T:.*]] = tile.load %arg1
// CHECK:     %[[NEXT:.*]] = arith.addf %[[ACC]], %[[T]]
// CHECK:     scf.yield %[[NEXT]], %{{.*}} : tensor<64xf32>, i1
// CHECK:   }
// CHECK:   scf.yield %[[R]]#0 : tensor<64xf32>
// CHECK: }
// CHECK: tile.store %[[SUM]], %arg0
