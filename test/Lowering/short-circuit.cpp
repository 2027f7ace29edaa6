// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `&&`, `||` and `?:` keep C++'s evaluation order where evaluating an operand C++ skips could
// go wrong (an integer division by zero, an assignment): that operand is evaluated in an
// scf.if. Operands without such effects are evaluated eagerly.
#include <tile/tile.hpp>

TILE_KERNEL void ratio(tile::Tensor<int32_t, 32>& z, int n, int m) {
  int a = (n != 0 && 100 / n > 2) ? 1 : 0;
  int b = n > 0 && m > 0;
  int c = m == 0 ? 0 : n % m;
  z.store(tile::full<int32_t, 32>(a + b + c));
}

// CHECK-LABEL: func.func @ratio(
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %arg1, %{{.*}} : i32
// CHECK: %[[AND:.*]] = scf.if %[[NZ]] -> (i1) {
// CHECK:   %[[Q:.*]] = arith.divsi %{{.*}}, %arg1 : i32
// CHECK:   %[[GT:.*]] = arith.cmpi sgt, %[[Q]], %{{.*}} : i32
// CHECK:   scf.yield %[[GT]] : i1
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : i1
// CHECK: }
// CHECK: arith.select %[[AND]]
// CHECK: %[[P:.*]] = arith.cmpi sgt, %arg1
// CHECK: %[[Q2:.*]] = arith.cmpi sgt, %arg2
// CHECK: arith.andi %[[P]], %[[Q2]] : i1
// CHECK: %[[MZ:.*]] = arith.cmpi eq, %arg2
// CHECK: scf.if %[[MZ]] -> (i32) {
// CHECK: } else {
// CHECK:   arith.remsi %arg1, %arg2 : i32
// CHECK: }
