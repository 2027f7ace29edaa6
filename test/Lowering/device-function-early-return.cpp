// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// An inlined device function may return early, also from inside a loop: its returned value is
// a slot carried like a variable, and the statements after a `return` are guarded.
#include <tile/tile.hpp>

template <int N>
tile::Tile<float, N> boost(tile::Tile<float, N> t, int times) {
  if (times < 0)
    return -t;
  for (int i = 0; i < times; ++i) {
    if (i == 3)
      return t * 100.0f;
    t = t * 2.0f;
  }
  return t;
}

TILE_KERNEL void apply(tile::Tensor<float, 64>& z, int times) {
  z.store(boost(z.load(), times));
}

// CHECK-LABEL: func.func @apply(
// CHECK: %[[T:.*]] = tile.load %arg0
// CHECK: %[[R:.*]]:{{[0-9]+}} = scf.if %{{.*}} -> ({{.*}}) {
// CHECK:   arith.negf %[[T]]
// CHECK: } else {
// CHECK:   %[[W:.*]]:4 = scf.while ({{.*}}) : (tensor<64xf32>, i32, i1, tensor<64xf32>) -> (tensor<64xf32>, i32, i1, tensor<64xf32>) {
// CHECK:   } do {
// CHECK:     arith.mulf
// CHECK:   }
// After the loop, `return t` runs unless a return inside it did.
// CHECK:   %[[NOT:.*]] = arith.xori %[[W]]#2
// CHECK:   scf.if %[[NOT]] -> (i1, tensor<64xf32>) {
// CHECK:     scf.yield %{{.*}}, %[[W]]#0 : i1, tensor<64xf32>
// CHECK:   } else {
// CHECK:     scf.yield %[[W]]#2, %[[W]]#3 : i1, tensor<64xf32>
// CHECK:   }
// CHECK: }
// CHECK: tile.store %[[R]]#1, %arg0
