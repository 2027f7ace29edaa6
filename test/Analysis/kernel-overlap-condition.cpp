// RUN: tilecc check -verify %s
// An enclosing condition bounds the index: i < 2 keeps tile i away from tile 2.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int i) {
  auto p = z.partition_mut<64>();
  auto q = z.partition_mut<64>();
  if (i >= 0 && i < 2) {
    p.store(tile::zeros<float, 64>(), i);
    q.store(tile::ones<float, 64>(), 2);
  }
}
