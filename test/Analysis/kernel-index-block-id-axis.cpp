// RUN: tilecc check -verify %s
// A 1-D launch grid has no axis 1: block_id(1) is always 0.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(x.partition<64>().load(tile::block_id(1))); // expected-error {{grid axis 1 of 'tile::block_id' is out of range: the launch grid has rank 1 (the rank of the kernel's exclusive views), so valid axes are 0..0}}
}
