// RUN: tilecc check -verify %s
// k + 4 for k in [0, 4) is past the 4 tiles of the view on every iteration.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 256>& x) {
  auto src = x.partition<64>();
  auto dst = z.partition_mut<64>();
  for (int k = 0; k < 4; ++k)
    dst.store(src.load(k + 4), k); // expected-error {{tile index 'k + 4' of 'src' is out of range: it is at least 4, and 'src' has at most 4 tiles along this axis}}
}
