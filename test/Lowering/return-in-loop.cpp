// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A `return` inside a loop: the loop carries the function's return flag, its condition fails
// once the flag is set, and the statements after the loop run only if it is not.
#include <tile/tile.hpp>

TILE_KERNEL void first_hit(tile::Tensor<int32_t, 32>& z, int n, int target) {
  for (int i = 0; i < n; ++i) {
    if (i * i == target) {
      z.store(tile::full<int32_t, 32>(i));
      return;
    }
  }
  z.store(tile::full<int32_t, 32>(-1));
}

// CHECK-LABEL: func.func @first_hit(
// CHECK: %[[W:.*]]:2 = scf.while (%[[I:.*]] = %{{.*}}, %[[RET:.*]] = %{{.*}}) : (i32, i1) -> (i32, i1) {
// CHECK:   %[[GO:.*]] = arith.xori %[[RET]], %{{.*}} : i1
// CHECK:   %[[C:.*]] = scf.if %[[GO]] -> (i1) {
// CHECK:   scf.condition(%[[C]]) %[[I]], %[[RET]] : i32, i1
// CHECK: } do {
// CHECK:   %[[HIT:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK:     tile.store
// CHECK:     %[[TRUE:.*]] = arith.constant true
// CHECK:     scf.yield %[[TRUE]] : i1
// CHECK:   } else {
// CHECK:     %[[FALSE:.*]] = arith.constant false
// CHECK:     scf.yield %[[FALSE]] : i1
// CHECK:   }
// CHECK:   scf.yield %{{.*}}, %[[HIT]] : i32, i1
// CHECK: }
// CHECK: %[[NOT:.*]] = arith.xori %[[W]]#1, %{{.*}} : i1
// CHECK: scf.if %[[NOT]] {
// CHECK:   tile.store
// CHECK: }
// CHECK-NEXT: return
