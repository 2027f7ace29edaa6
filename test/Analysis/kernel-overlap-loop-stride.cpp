// RUN: tilecc check -verify %s
// Even tiles through one view, odd tiles through the other: a loop stepping by 2.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 512>& z) {
  auto even = z.partition_mut<64>();
  auto odd = z.partition_mut<64>();
  for (int i = 0; i < 8; i += 2) {
    even.store(tile::zeros<float, 64>(), i);
    odd.store(tile::ones<float, 64>(), i + 1);
  }
}
