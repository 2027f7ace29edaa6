// RUN: tilecc check -verify %s
// A view returned by value moves out of the device function: no escape.
// expected-no-diagnostics
#include <tile/tile.hpp>

inline tile::TiledViewMut<float, 64> tiles(tile::Tensor<float, 256>& z) { return z.partition_mut<64>(); }

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = tiles(z);
  p.store(tile::zeros<float, 64>(), 0);
  p.store(tile::ones<float, 64>(), 3);
}
