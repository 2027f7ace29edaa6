// RUN: tilecc check -verify %s
// Tile 0 of the 64-wide partition is [0, 64); tile 2 of the 32-wide one is [64, 96).
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>();
  auto q = z.partition_mut<32>();
  p.store(tile::zeros<float, 64>(), 0);
  q.store(tile::ones<float, 32>(), 2);
  q.store(tile::ones<float, 32>(), 3 + 2);
}
