// RUN: tilecc check -verify %s
// A shared view passed, after a cast, to a device function that takes an exclusive view.
#include <tile/tile.hpp>

inline void fill(tile::Tensor<float, 64>& out, float v) {
  out.store(tile::full<float, 64>(v)); // expected-error {{store through the shared view 'x'}}
}

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  fill(z, 1.0f);
  fill(const_cast<tile::Tensor<float, 64>&>(x), 2.0f); // expected-note {{'x' is made writable by this cast}} expected-note {{in the device function called here}}
}
