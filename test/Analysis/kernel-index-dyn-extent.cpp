// RUN: tilecc check -verify %s
// A run-time extent bounds tile indices from below only.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(x.partition<64>().load(1000) + x.partition<64>().load(tile::block_id()));
}
