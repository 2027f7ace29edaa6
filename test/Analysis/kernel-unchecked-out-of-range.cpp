// RUN: tilecc check -verify %s
// Unsafe code is still checked for indices that are out of range on every execution: there
// an unchecked store writes past the piece.
#include <tile/tile.hpp>

TILE_KERNEL TILE_UNSAFE void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>();
  tile::unchecked::store(p, tile::zeros<float, 64>(), 4); // expected-error {{tile index 4 of 'p' is out of range: 'p' has at most 4 tiles along this axis (256 elements in tiles of 64)}}
}
