// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `break` makes the `for` an scf.while with a carried break flag: once it is set the condition
// is not evaluated and fails, and the statements after the `break` (and the increment) do not
// run in that iteration.
#include <tile/tile.hpp>

TILE_KERNEL void until_big(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x,
                           int n, int stop) {
  auto tiles = x.partition<64>();
  tile::Tile<float, 64> acc;
  for (int k = 0; k < n; ++k) {
    if (k == stop)
      break;
    acc = acc + tiles.load(k);
  }
  z.store(acc);
}

// CHECK-LABEL: func.func @until_big(
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: %[[W:.*]]:3 = scf.while (%[[ACC:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}}, %[[BROKEN:.*]] = %[[FALSE]]) : (tensor<64xf32>, i32, i1) -> (tensor<64xf32>, i32, i1) {
// CHECK:   %[[GO:.*]] = arith.xori %[[BROKEN]], %{{.*}} : i1
// CHECK:   %[[C:.*]] = scf.if %[[GO]] -> (i1) {
// CHECK:     %[[LT:.*]] = arith.cmpi slt, %[[K]], %arg2 : i32
// CHECK:     scf.yield %[[LT]] : i1
// CHECK:   } else {
// CHECK:     scf.yield %{{.*}} : i1
// CHECK:   }
// CHECK:   scf.condition(%[[C]]) %[[ACC]], %[[K]], %[[BROKEN]]
// CHECK: } do {
// CHECK: ^bb0(%[[ACC2:.*]]: tensor<64xf32>, %[[K2:.*]]: i32, %{{.*}}: i1):
// CHECK:   %[[EQ:.*]] = arith.cmpi eq, %[[K2]], %arg3 : i32
// CHECK:   %[[B:.*]]:2 = scf.if %[[EQ]] -> (tensor<64xf32>, i1) {
// CHECK:     %[[TRUE:.*]] = arith.constant true
// CHECK:     scf.yield %[[ACC2]], %[[TRUE]] : tensor<64xf32>, i1
// CHECK:   } else {
// CHECK:     tile.load
// CHECK:     %[[SUM:.*]] = arith.addf %[[ACC2]]
// CHECK:     scf.yield %[[SUM]], %{{.*}} : tensor<64xf32>, i1
// CHECK:   }
// The increment runs unless the break did.
// CHECK:   %[[NB:.*]] = arith.xori %[[B]]#1, %{{.*}} : i1
// CHECK:   %[[NEXT:.*]] = scf.if %[[NB]] -> (i32) {
// CHECK:     arith.addi %[[K2]]
// CHECK:   scf.yield %[[B]]#0, %[[NEXT]], %[[B]]#1 : tensor<64xf32>, i32, i1
// CHECK: }
// CHECK: tile.store %[[W]]#0, %arg0
