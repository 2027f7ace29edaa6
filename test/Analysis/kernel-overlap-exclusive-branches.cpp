// RUN: tilecc check -verify %s
// Accesses on the two arms of one branch never happen together.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int mode) {
  auto p = z.partition_mut<64>();
  auto q = z.partition_mut<32>();
  if (mode == 0)
    p.store(tile::zeros<float, 64>(), 0);
  else
    q.store(tile::ones<float, 32>(), 0);
}
