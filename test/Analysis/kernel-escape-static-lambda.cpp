// RUN: tilecc check -verify %s
// A lambda capturing a view by reference, kept in a static variable beyond the program.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z) { // expected-note {{'z' is a parameter of the kernel}}
  static auto fill = [&z](float v) { z.store(tile::full<float, 64>(v)); }; // expected-error {{the view 'z' escapes the tile program: it is stored in the static variable 'fill'}} expected-error {{may not use the variable 'fill' of static storage: it is not const}}
  fill(1.0f);
}
