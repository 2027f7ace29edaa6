// RUN: tilecc check -verify %s
// A view whose last use comes before the next view is created does not overlap it.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  {
    auto p = z.partition_mut<64>();
    p.store(tile::zeros<float, 64>(), 0);
  }
  auto q = z.partition_mut<32>();
  q.store(tile::ones<float, 32>(), 0);
  z.partition_mut<128>().store(tile::full<float, 128>(2.0f), 0);
}
