// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A `for` that scf.for would not run exactly as C++ does becomes an scf.while that carries its
// variables with their C++ types: here a uint8_t counter (whose ++ wraps in C++), and a loop
// with two variables.
#include <tile/tile.hpp>

TILE_KERNEL void odd(tile::Tensor<int32_t, 32>& z, int n) {
  int count = 0;
  for (uint8_t b = 0; b < 200; ++b)
    count += 1;
  for (int i = 0, j = n; i < j; ++i, --j)
    count += 2;
  z.store(tile::full<int32_t, 32>(count));
}

// CHECK-LABEL: func.func @odd(
// CHECK-NOT: scf.for
// CHECK: %[[W:.*]]:2 = scf.while (%[[C:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) : (i32, i8) -> (i32, i8) {
// CHECK:   %[[BW:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK:   %[[LT:.*]] = arith.cmpi slt, %[[BW]], %{{.*}} : i32
// CHECK:   scf.condition(%[[LT]]) %[[C]], %[[B]] : i32, i8
// CHECK: } do {
// CHECK: ^bb0(%[[C2:.*]]: i32, %[[B2:.*]]: i8):
// CHECK:   %[[INC:.*]] = arith.addi %[[B2]], %{{.*}} : i8
// CHECK:   scf.yield %{{.*}}, %[[INC]] : i32, i8
// CHECK: }
// CHECK: scf.while (%{{.*}} = %[[W]]#0, %{{.*}} = %{{.*}}, %{{.*}} = %arg1) : (i32, i32, i32) -> (i32, i32, i32)
