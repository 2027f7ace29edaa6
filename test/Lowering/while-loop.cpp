// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `while` becomes scf.while: the condition in the before region, the body in the after
// region; the variables the loop assigns (a tile and a scalar) are carried and flow out.
#include <tile/tile.hpp>

TILE_KERNEL void halve(tile::Tensor<float, 128>& z, float limit) {
  auto t = z.load();
  float bound = 1024.0f;
  while (bound > limit) {
    t = t * 0.5f;
    bound = bound * 0.5f;
  }
  z.store(t);
}

// CHECK-LABEL: func.func @halve(
// CHECK: %[[T:.*]] = tile.load %arg0
// CHECK: %[[B:.*]] = arith.constant 1.024000e+03 : f32
// CHECK: %[[W:.*]]:2 = scf.while (%[[T1:.*]] = %[[T]], %[[B1:.*]] = %[[B]]) : (tensor<128xf32>, f32) -> (tensor<128xf32>, f32) {
// CHECK:   %[[C:.*]] = arith.cmpf ogt, %[[B1]], %arg1 : f32
// CHECK:   scf.condition(%[[C]]) %[[T1]], %[[B1]] : tensor<128xf32>, f32
// CHECK: } do {
// CHECK: ^bb0(%[[T2:.*]]: tensor<128xf32>, %[[B2:.*]]: f32):
// CHECK:   %[[T3:.*]] = arith.mulf %[[T2]], %{{.*}} : tensor<128xf32>
// CHECK:   %[[B3:.*]] = arith.mulf %[[B2]], %{{.*}} : f32
// CHECK:   scf.yield %[[T3]], %[[B3]] : tensor<128xf32>, f32
// CHECK: }
// CHECK: tile.store %[[W]]#0, %arg0
