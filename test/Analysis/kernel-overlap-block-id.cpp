// RUN: tilecc check -verify %s
// Indices from the program's grid position: block_id() % 2 and block_id() % 2 + 2 are
// different tiles of the piece, whatever the block.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>();
  auto q = z.partition_mut<64>();
  const auto b = tile::block_id(0);
  p.store(tile::zeros<float, 64>(), b % 2);
  q.store(tile::ones<float, 64>(), tile::block_id() % 2 + 2);
  q.store(tile::ones<float, 64>(), (b + 1) % 2 + 2);
}
