// RUN: tilecc check -verify %s
// A while loop whose counter only grows: at least its initial value in every iteration, so the
// two halves stay apart across iterations.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto lo = z.partition_mut<64>();
  auto hi = z.partition_mut<64>();
  int i = 0;
  while (i < 2) {
    lo.store(tile::zeros<float, 64>(), i);
    hi.store(tile::ones<float, 64>(), i + 2);
    ++i;
  }
}
