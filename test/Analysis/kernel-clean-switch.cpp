// RUN: tilecc check -verify %s
// A switch choosing the tile index: one view, any index, no finding.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int mode) {
  auto p = z.partition_mut<64>();
  int i = 0;
  switch (mode) {
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
