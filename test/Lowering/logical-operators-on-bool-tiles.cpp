// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `&&`, `||` and `!` on Tile<bool> are element by element, as `&`, `|` and `~` are: both
// operands are evaluated (a tile has no one truth value to stop at); a scalar bool operand is
// broadcast.
#include <tile/tile.hpp>

TILE_KERNEL void in_band(tile::Tensor<int32_t, 64>& z, const tile::Tensor<int32_t, tile::dyn>& x, int lo,
                         int hi, bool flip) {
  auto t = tile::load_tile_like(x, z);
  auto inside = t >= lo && t < hi;
  auto outside = !inside || flip;
  z.store(tile::where(outside, tile::zeros<int32_t, 64>(), t));
}

// CHECK-LABEL: func.func @in_band(
// CHECK: %[[GE:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK: %[[AND:.*]] = arith.andi %[[GE]], %[[LT]] : tensor<64xi1>
// CHECK: %[[NOT:.*]] = arith.xori %[[AND]], %{{.*}} : tensor<64xi1>
// CHECK: %[[OR:.*]] = arith.ori %[[NOT]], %{{.*}} : tensor<64xi1>
// CHECK: arith.select %[[OR]]
// CHECK-NOT: scf.if
