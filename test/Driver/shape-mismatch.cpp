// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// RUN: tilecc compile %s -o %t.cu 2>/dev/null || test $? -eq 1
// Tile shape errors are reported in tile terms at the user's line.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x) {
  auto a = tile::load_tile_like(x, z);
  auto b = tile::zeros<float, 64>();
  z.store(a + b);
}
// CHECK: shape-mismatch.cpp:9:{{[0-9]+}}: error: {{.*}}tile shapes differ
// CHECK: note: the tile library reports it here
