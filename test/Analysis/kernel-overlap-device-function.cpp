// RUN: tilecc check -verify %s
// Stores inside a device function are accesses through the views it was given.
#include <tile/tile.hpp>

inline void put(tile::TiledViewMut<float, 64>& v, int i) {
  v.store(tile::zeros<float, 64>(), i); // expected-error {{views 'p' and 'q' of this program's piece may overlap}} expected-note {{the access through 'p' that it may overlap}}
}

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  put(p, 1);
  put(q, 3);
  put(q, 1); // expected-note {{in the device function called here}}
}
