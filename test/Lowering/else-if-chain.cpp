// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `else if` chains nest: each inner scf.if's results flow out through the outer else branch.
#include <tile/tile.hpp>

TILE_KERNEL void grade(tile::Tensor<int32_t, 32>& z, int v) {
  int g;
  if (v >= 90)
    g = 4;
  else if (v >= 75)
    g = 3;
  else if (v >= 50)
    g = 2;
  else
    g = 0;
  z.store(tile::full<int32_t, 32>(g));
}

// CHECK-LABEL: func.func @grade(
// CHECK: %[[C0:.*]] = arith.cmpi sge, %arg1, %{{.*}} : i32
// CHECK: %[[G:.*]] = scf.if %[[C0]] -> (i32) {
// CHECK:   scf.yield %{{.*}} : i32
// CHECK: } else {
// CHECK:   %[[C1:.*]] = arith.cmpi sge, %arg1, %{{.*}} : i32
// CHECK:   %[[G1:.*]] = scf.if %[[C1]] -> (i32) {
// CHECK:   } else {
// CHECK:     %[[G2:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:     scf.yield %[[G2]] : i32
// CHECK:   scf.yield %[[G1]] : i32
// CHECK: }
// CHECK: tile.splat %[[G]] : i32 -> tensor<32xi32>
