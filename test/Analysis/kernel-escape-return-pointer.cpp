// RUN: tilecc check -verify %s
// Returning the address of a view made in the device function: a pointer that outlives it.
#include <tile/tile.hpp>

inline tile::TiledViewMut<float, 64>* tiles(tile::Tensor<float, 256>& z, tile::TiledViewMut<float, 64>& keep) {
  return &keep; // expected-error {{the view 'p' escapes the device function 'tiles': it is returned by pointer}}
}

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  tiles(z, p)->store(tile::zeros<float, 64>(), 0); // expected-note {{in the device function called here}}
}
