// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `do`/`while` runs its body before the first test: scf.while's before region holds the body
// and the condition, the after region only forwards the carried values. A `continue` skips to
// the condition.
#include <tile/tile.hpp>

TILE_KERNEL void until(tile::Tensor<int32_t, 32>& z, int n) {
  int d = 0;
  do {
    d += 2;
    if (d == 6)
      continue;
    d += 1;
  } while (d < n);
  z.store(tile::full<int32_t, 32>(d));
}

// CHECK-LABEL: func.func @until(
// CHECK: %[[W:.*]] = scf.while (%[[D:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK:   %[[D2:.*]] = arith.addi %[[D]], %{{.*}} : i32
// CHECK:   %[[SIX:.*]] = arith.cmpi eq, %[[D2]], %{{.*}} : i32
// CHECK:   %[[R:.*]]:2 = scf.if %[[SIX]] -> (i32, i1) {
// CHECK:     scf.yield %[[D2]], %{{.*}} : i32, i1
// CHECK:   } else {
// CHECK:     %[[D3:.*]] = arith.addi %[[D2]], %{{.*}} : i32
// CHECK:     scf.yield %[[D3]], %{{.*}} : i32, i1
// CHECK:   }
// CHECK:   %[[C:.*]] = arith.cmpi slt, %[[R]]#0, %arg1 : i32
// CHECK:   scf.condition(%[[C]]) %[[R]]#0 : i32
// CHECK: } do {
// CHECK: ^bb0(%[[A:.*]]: i32):
// CHECK:   scf.yield %[[A]] : i32
// CHECK: }
// CHECK: tile.splat %[[W]] : i32
