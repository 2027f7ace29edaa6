// RUN: tilecc check -verify %s
// The address of the exclusive piece kept in a static variable outlives the tile program.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z) { // expected-note {{'z' is a parameter of the kernel}}
  static tile::Tensor<float, 64>* last = nullptr; // expected-error {{may not use the variable 'last' of static storage: it is not const}}
  last = &z; // expected-error {{the view 'z' escapes the tile program: it is stored in the static variable 'last'}}
  z.store(tile::zeros<float, 64>());
}
