// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// An early `return` from the kernel: the statements after `if (...) return;` run in the else
// branch of the scf.if, so a program whose piece lies past the array does nothing.
#include <tile/tile.hpp>

TILE_KERNEL void guarded(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x) {
  if (tile::block_id(0) * 128 >= x.shape(0))
    return;
  auto t = tile::load_tile_like(x, z);
  z.store(t + 1.0f);
}

// CHECK-LABEL: func.func @guarded(
// CHECK: %[[B:.*]] = tile.block_id 0
// CHECK: %[[D:.*]] = tile.dim %arg1, 0
// CHECK: %[[PAST:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK: scf.if %[[PAST]]
// CHECK-NOT: tile.store
// CHECK: } else {
// CHECK:   tile.load %arg1
// CHECK:   tile.store %{{.*}}, %arg0
// CHECK: }
// CHECK-NEXT: return
