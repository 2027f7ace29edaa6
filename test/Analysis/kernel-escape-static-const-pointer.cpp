// RUN: tilecc check -verify %s
// A const static pointer initialized once with the first program's piece.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z) { // expected-note {{'z' is a parameter of the kernel}}
  static tile::Tensor<float, 64>* const first = &z; // expected-error {{the view 'z' escapes the tile program: it is stored in the static variable 'first'}} expected-error {{may not use the variable 'first' of static storage: it holds a pointer to data that is not const ('tile::Tensor<float}}
  first->store(z.load());
}
