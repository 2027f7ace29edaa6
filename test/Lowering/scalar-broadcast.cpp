// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// Scalars broadcast into tiles after C++'s conversion to the tile's element type.
#include <tile/tile.hpp>

TILE_KERNEL void saxpy(tile::Tensor<float, 256>& y, const tile::Tensor<float, tile::dyn>& x,
                       float a, int b) {
  y.store(tile::load_tile_like(x, y) * a + b);
}

// CHECK-LABEL: func.func @saxpy(
// CHECK-SAME: %arg2: f32 {tile.cpp_type = "float"}
// CHECK-SAME: %arg3: i32 {tile.cpp_type = "int"}
// CHECK: %[[A:.*]] = tile.splat %arg2 : f32 -> tensor<256xf32>
// CHECK: arith.mulf %{{.*}}, %[[A]] : tensor<256xf32>
// CHECK: %[[B:.*]] = arith.sitofp %arg3 : i32 to f32
// CHECK: tile.splat %[[B]] : f32 -> tensor<256xf32>
// CHECK: arith.addf
