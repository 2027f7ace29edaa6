// RUN: tilecc check -verify %s
// The piece written directly while a view cut from it is still in use.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) { // expected-note {{'z' is this program's exclusive piece}}
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  p.store(tile::zeros<float, 64>(), 1); // expected-note {{the access through 'p' that it may overlap}}
  z.store(tile::ones<float, 256>()); // expected-error {{views 'p' and 'z' of this program's piece may overlap while both are in use: a store through 'z' may write elements that 'p' also accesses}}
  p.store(tile::zeros<float, 64>(), 0);
}
