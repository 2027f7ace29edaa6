// RUN: tilecc check -verify %s
// An index reassigned on both branches: 2 or 3, never tile 1.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 64>& x) {
  auto p = z.partition_mut<64>();
  auto q = z.partition_mut<64>();
  int i = 0;
  if (tile::num_blocks() > 4)
    i = 2;
  else
    i = 3;
  p.store(x.load(), 1);
  q.store(x.load(), i);
}
