// RUN: tilecc check -verify %s
// A device function storing the address of its local view into the caller's pointer.
#include <tile/tile.hpp>

inline void open(tile::Tensor<float, 256>& z, tile::TiledViewMut<float, 64>** out) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  *out = &p; // expected-error {{the view 'p' escapes its scope: it is stored in 'slot', which outlives it}}
}

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  tile::TiledViewMut<float, 64>* slot = nullptr;
  open(z, &slot); // expected-note {{in the device function called here}}
}
