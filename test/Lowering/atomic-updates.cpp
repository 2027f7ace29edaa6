// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// Updates of a tile::Atomic parameter become tile.atomic: a tile value updates tile (i, ...) of
// its shape (offsets i * extent), a scalar the element (i, ...). max/min of unsigned elements
// compare as unsigned (umax/umin); atomic_cas takes the expected value first.
#include <tile/tile.hpp>

TILE_KERNEL void updates(tile::Tensor<int32_t, 64>& z, tile::Atomic<int32_t, tile::dyn>& bins,
                         tile::Atomic<uint16_t, 8, 8>& marks, tile::Atomic<float, tile::dyn>& top) {
  z.store(bins.atomic_add(tile::ones<int32_t, 64>(), tile::block_id(0)));
  marks.atomic_max(tile::full<uint16_t, 2, 8>(uint16_t(9)), 3, 0);
  top.atomic_min(2.5f, 7);
  bins.atomic_cas(0, 1, 5);
}

// CHECK-LABEL: func.func @updates(
// CHECK-SAME: !tile.view<?xi32, atomic>, %{{.*}}: !tile.view<8x8xi16, atomic>, %{{.*}}: !tile.view<?xf32, atomic>
// CHECK: tile.block_id 0
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %[[C64]] : index
// CHECK: %[[OLD:.*]] = tile.atomic add %{{.*}}, %arg1[%[[OFF]]] : tensor<64xi32>, <?xi32, atomic>
// CHECK: tile.store %[[OLD]], %arg0
// CHECK: tile.atomic umax %{{.*}}, %arg2[%{{.*}}, %{{.*}}] : tensor<2x8xi16>, <8x8xi16, atomic>
// CHECK: tile.atomic min %{{.*}}, %arg3[%{{.*}}] : f32, <?xf32, atomic>
// CHECK: %[[E:.*]] = arith.constant 0 : i32
// CHECK: %[[D:.*]] = arith.constant 1 : i32
// CHECK: tile.atomic cas %[[D]], %arg1[%{{.*}}] expected %[[E]] : i32 : i32, <?xi32, atomic>
