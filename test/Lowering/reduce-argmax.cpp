// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `tile::argmax<0>` reduces the values together with their indices along the axis (an iota
// reshaped and broadcast over the other axes); the combiner keeps the greater value, the
// smaller index among equals, and a number over a NaN. The result is the indices.
#include <tile/tile.hpp>

TILE_KERNEL void column_argmax(tile::Tensor<int32_t, 32>& z,
                               const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = x.partition<8, 32>().load(0, tile::block_id(0));
  z.store(tile::argmax<0>(t));
}

// CHECK-LABEL: func.func @column_argmax(
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<8x32xf32>
// CHECK: %[[IOTA:.*]] = tile.iota : tensor<8xi32>
// CHECK: %[[COL:.*]] = tile.reshape %[[IOTA]] : tensor<8xi32> -> tensor<8x1xi32>
// CHECK: %[[IDX:.*]] = tile.broadcast %[[COL]] : tensor<8x1xi32> -> tensor<8x32xi32>
// CHECK: %[[R:.*]]:2 = tile.reduce %[[T]], %[[IDX]] axis 0 : tensor<8x32xf32>, tensor<8x32xi32> -> tensor<32xf32>, tensor<32xi32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[AI:.*]]: i32, %[[B:.*]]: f32, %[[BI:.*]]: i32):
// CHECK:   arith.cmpi slt, %[[BI]], %[[AI]] : i32
// CHECK:   arith.cmpf ogt, %[[B]], %[[A]] : f32
// CHECK:   arith.cmpf uno, %[[A]], %[[A]] : f32
// CHECK:   %[[V:.*]] = arith.select %{{.*}}, %[[B]], %[[A]] : f32
// CHECK:   %[[I:.*]] = arith.select %{{.*}}, %[[BI]], %[[AI]] : i32
// CHECK:   tile.yield %[[V]], %[[I]] : f32, i32
// CHECK: tile.store %[[R]]#1
