// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A tile variable assigned in both branches of an `if` flows out as the scf.if's result.
#include <tile/tile.hpp>

TILE_KERNEL void pick(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x, int mode) {
  auto t = tile::load_tile_like(x, z);
  tile::Tile<float, 128> r;
  if (mode > 0)
    r = t * 2.0f;
  else
    r = t + 1.0f;
  z.store(r);
}

// CHECK-LABEL: func.func @pick(
// CHECK: %[[T:.*]] = tile.load %arg1
// CHECK: %[[C:.*]] = arith.cmpi sgt, %arg2, %{{.*}} : i32
// CHECK: %[[R:.*]] = scf.if %[[C]] -> (tensor<128xf32>) {
// CHECK:   %[[M:.*]] = arith.mulf %[[T]], %{{.*}} : tensor<128xf32>
// CHECK:   scf.yield %[[M]] : tensor<128xf32>
// CHECK: } else {
// CHECK:   %[[A:.*]] = arith.addf %[[T]], %{{.*}} : tensor<128xf32>
// CHECK:   scf.yield %[[A]] : tensor<128xf32>
// CHECK: }
// CHECK: tile.store %[[R]], %arg0
