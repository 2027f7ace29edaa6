// RUN: tilecc check -verify %s
// Loops bounded by the tile count, by a constant, or by a condition stay in range; the last
// iteration of k <= 4 is out of range on one iteration only and is not reported.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 256>& x) {
  auto src = x.partition<64>();
  auto dst = z.partition_mut<64>();
  for (int k = 0; k < tile::num_tiles(dst, 0); ++k)
    dst.store(src.load(k), k);
  for (int k = 3; k >= 0; --k)
    dst.store(src.load(3 - k), k);
  for (int k = 0; k <= 4; ++k)
    if (k < 4)
      dst.store(src.load(k), k);
  for (int k = 0; k <= 4; ++k)
    dst.store(src.load(k), 0);
}
