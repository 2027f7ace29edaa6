// RUN: tilecc check -verify %s
// A constant tile index past the last tile of a statically sized view.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 256>& x) {
  z.store(x.partition<64>().load(4)); // expected-error {{tile index 4 of 'x.partition<64>()' is out of range: 'x.partition<64>()' has at most 4 tiles along this axis (256 elements in tiles of 64)}}
}
