// RUN: tilecc check -verify %s
// A lambda capturing views by reference and used where it was made does not escape.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 256>& x) {
  auto src = x.partition<64>();
  auto dst = z.partition_mut<64>();
  auto copy = [&](int i) { dst.store(src.load(i), i); };
  for (int i = 0; i < 4; ++i)
    copy(i);
}
