// RUN: tilecc check -verify %s
// A TILE_UNSAFE kernel may skip the bounds handling.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL TILE_UNSAFE void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 256>& x) {
  auto src = x.partition<64>();
  auto dst = z.partition_mut<64>();
  for (int i = 0; i < 4; ++i)
    tile::unchecked::store(dst, tile::unchecked::load(src, i) + 1.0f, i);
}
