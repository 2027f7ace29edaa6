// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// An `if` without `else`: the variables its branch assigns are results, and the implicit else
// yields their values from before the `if`.
#include <tile/tile.hpp>

TILE_KERNEL void bump(tile::Tensor<float, 64>& z, float s) {
  auto t = z.load();
  float scale = 1.0f;
  if (s > 0.0f) {
    t = t + s;
    scale = 2.0f;
  }
  z.store(t * scale);
}

// CHECK-LABEL: func.func @bump(
// CHECK: %[[T:.*]] = tile.load %arg0
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[C:.*]] = arith.cmpf ogt, %arg1
// CHECK: %[[R:.*]]:2 = scf.if %[[C]] -> (tensor<64xf32>, f32) {
// CHECK:   %[[A:.*]] = arith.addf %[[T]], %{{.*}} : tensor<64xf32>
// CHECK:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:   scf.yield %[[A]], %[[TWO]] : tensor<64xf32>, f32
// CHECK: } else {
// CHECK:   scf.yield %[[T]], %[[ONE]] : tensor<64xf32>, f32
// CHECK: }
// CHECK: %[[S:.*]] = tile.splat %[[R]]#1
// CHECK: %[[P:.*]] = arith.mulf %[[R]]#0, %[[S]]
// CHECK: tile.store %[[P]], %arg0
