// RUN: tilecc check -verify %s
// num_tiles of a 1-D view has only axis 0.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>();
  for (int i = 0; i < tile::num_tiles(p, 1); ++i) // expected-error {{axis 1 of 'tile::num_tiles' is out of range: 'p' has rank 1}}
    p.store(tile::zeros<float, 64>(), i);
}
