// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// tile::unchecked::load/store lower to the same tile accesses as the bounded members: outside
// the extent they are undefined behaviour, so the bounded access is a correct translation.
#include <tile/tile.hpp>

TILE_KERNEL TILE_UNSAFE void copy(tile::Tensor<float, 256>& out, const tile::Tensor<float, tile::dyn>& in) {
  auto src = in.partition<64>();
  auto dst = out.partition_mut<64>();
  for (int i = 0; i < 4; ++i)
    tile::unchecked::store(dst, tile::unchecked::load(src, 4 * tile::block_id() + i), i);
}

// CHECK-LABEL: func.func @copy(
// CHECK: scf.for
// CHECK: tile.load %arg1[%{{.*}}] : <?xf32> -> tensor<64xf32>
// CHECK: tile.store %{{.*}}, %arg0[%{{.*}}] : tensor<64xf32>, <256xf32, exclusive>
