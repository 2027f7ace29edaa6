// RUN: tilecc check -verify %s
// Two views of one piece, each kept to its half across every iteration.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto lo = z.partition_mut<64>();
  auto hi = z.partition_mut<64>();
  for (int i = 0; i < 2; ++i) {
    lo.store(tile::zeros<float, 64>(), i);
    hi.store(tile::ones<float, 64>(), i + 2);
  }
}
