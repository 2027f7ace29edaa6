// RUN: tilecc check -verify %s
// A switch choosing the tile index: one view, any index, no finding.
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int mode) {
  auto p = z.partition_mut<64>();
  int i = 0;
  switch (mode) { // expected-error {{'switch' (write it as 'if'/'else if') is not supported in a tile kernel}}
  case 0:
    i = 1;
    break;
  case 1:
    i = 2;
    [[fallthrough]];
  default:
    i += 1;
  }
  p.store(tile::zeros<float, 64>(), i);
}
