// RUN: tilecc check -verify %s
// A lambda written inside a TILE_UNSAFE function shares its permission.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL TILE_UNSAFE void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>();
  auto put = [&](int i) { tile::unchecked::store(p, tile::zeros<float, 64>(), i); };
  put(0);
  put(3);
}
