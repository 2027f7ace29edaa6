// RUN: tilecc check -verify %s
// A lambda that captured a view by reference, returned out of the function that made it.
#include <tile/tile.hpp>

inline auto writer(tile::Tensor<float, 64>& out) {
  return [&out](float v) { out.store(tile::full<float, 64>(v)); }; // expected-error {{the view 'z' escapes the device function 'writer': a lambda capturing it by reference is returned}}
}

TILE_KERNEL void k(tile::Tensor<float, 64>& z) { // expected-note {{'z' is a parameter of the kernel}}
  auto w = writer(z); // expected-note {{in the device function called here}}
  w(1.0f);
}
