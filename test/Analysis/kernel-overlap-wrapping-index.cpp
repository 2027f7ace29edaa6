// RUN: tilecc check -verify %s
// Wrap-around index arithmetic: tile k and tile (k + 1) % 4 are never the same tile.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void rotate(tile::Tensor<float, 256>& z) {
  for (int k = 0; k < 4; ++k) {
    auto src = z.partition<64>();
    auto dst = z.partition_mut<64>();
    dst.store(tile::zeros<float, 64>(), (k + 1) % 4);
    auto unused = src.load(k);
    (void)unused;
  }
}
