// RUN: tilecc check -verify %s
// Tile (0, 1) and tile (1, 0) of 2-D partitions are different tiles.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64, 64>& z) {
  auto p = z.partition_mut<32, 32>();
  auto q = z.partition_mut<32, 32>();
  p.store(tile::zeros<float, 32, 32>(), 0, 1);
  q.store(tile::ones<float, 32, 32>(), 1, 0);
}
