// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// tile::check and tile::print become tile.check / tile.print with their literal text; a scalar
// condition converts to i1, and printing an unsigned value marks the op `is_unsigned`.
#include <tile/tile.hpp>

TILE_KERNEL void debug(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x, uint16_t n) {
  auto t = tile::load_tile_like(x, z);
  tile::check(t >= 0.0f, "no negative input");
  tile::check(n, "n is not zero");
  tile::print("n", n);
  tile::print("t", t);
  z.store(t);
}

// CHECK-LABEL: func.func @debug(
// CHECK: %[[C:.*]] = arith.cmpf oge, %{{.*}}, %{{.*}} : tensor<64xf32>
// CHECK: tile.check %[[C]], "no negative input" : tensor<64xi1>
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %arg2, %{{.*}} : i16
// CHECK: tile.check %[[NZ]], "n is not zero" : i1
// CHECK: tile.print "n", %arg2 {is_unsigned} : i16
// CHECK: tile.print "t", %{{.*}} : tensor<64xf32>
