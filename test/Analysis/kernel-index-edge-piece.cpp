// RUN: tilecc check -verify %s
// An edge piece may be smaller than its static shape: tile 1 of a 128-element piece may be
// padding there, but is in range for the others, so nothing is provably out of range.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) {
  auto p = z.partition_mut<64>();
  p.store(p.load(1) * 2.0f, 1);
}
