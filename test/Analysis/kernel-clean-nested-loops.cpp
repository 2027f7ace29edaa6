// RUN: tilecc check -verify %s
// Nested loops over a 2-D piece: the top half through one view, the bottom half through another.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128, 128>& z, const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto top = z.partition_mut<32, 32>();
  auto bottom = z.partition_mut<32, 32>();
  auto in = x.partition<32, 32>();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      top.store(in.load(i, j), i, j);
      bottom.store(in.load(i + 2, j), i + 2, j);
    }
}
