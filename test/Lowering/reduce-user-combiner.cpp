// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `tile::reduce<Axis>(t, init, f)` inlines the lambda into the combiner region and passes the
// init, converted to the element type, as the op's init; a rank-1 tile reduces to a scalar.
#include <tile/tile.hpp>

TILE_KERNEL void fold(tile::Tensor<int32_t, 1>& z, const tile::Tensor<int32_t, tile::dyn>& x,
                      int scale) {
  auto t = x.partition<128>().load(tile::block_id(0));
  int32_t s = tile::reduce<0>(t, 7, [scale](int32_t a, int32_t b) { return a + b * scale; });
  z.store(tile::full<int32_t, 1>(s));
}

// CHECK-LABEL: func.func @fold(
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<128xi32>
// CHECK: %[[INIT:.*]] = arith.constant 7 : i32
// CHECK: %[[S:.*]] = tile.reduce %[[T]] init(%[[INIT]] : i32) axis 0 : tensor<128xi32> -> i32 {
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:   %[[M:.*]] = arith.muli %[[B]], %arg2 : i32
// CHECK-NEXT:   %[[C:.*]] = arith.addi %[[A]], %[[M]] : i32
// CHECK-NEXT:   tile.yield %[[C]] : i32
// CHECK-NEXT: }
// CHECK: tile.splat %[[S]] : i32 -> tensor<1xi32>
