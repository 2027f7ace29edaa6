// RUN: tilecc check -verify %s
// Negative tile indices read padding only.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  auto tiles = x.partition<64>();
  z.store(tiles.load(-1)); // expected-error {{tile index -1 of 'tiles' is out of range: tile indices start at 0}}
}
