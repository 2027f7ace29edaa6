// RUN: tilecc check -verify %s
// Stores through one view are ordered by the program, whatever their indices: the later wins.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int i, int j) {
  auto p = z.partition_mut<64>();
  p.store(tile::zeros<float, 64>(), i);
  p.store(tile::ones<float, 64>(), j);
  p.store(p.load(i) + 1.0f, i);
}
