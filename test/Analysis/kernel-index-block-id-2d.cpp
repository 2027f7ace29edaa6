// RUN: tilecc check -verify %s
// A 2-D grid: block_id(0) and block_id(1) index a 2-D tiled view (as examples/matrix_relu does).
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 32, 64>& c, const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
  c.store(b.partition<32, 64>().load(tile::block_id(0), tile::block_id(1)) * tile::num_blocks(1));
}
