// RUN: tilecc check -verify %s
// After the last use of a view cut from it, the piece is free again (and before its creation).
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  z.store(tile::zeros<float, 256>());
  auto p = z.partition_mut<64>();
  p.store(p.load(1) + 1.0f, 1);
  z.store(z.load() * 2.0f);
}
