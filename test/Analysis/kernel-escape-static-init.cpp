// RUN: tilecc check -verify %s
// A static reference bound to a shared input.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a parameter of the kernel}}
  static const tile::Tensor<float, 64>& first = x; // expected-error {{the view 'x' escapes the tile program: it is stored in the static variable 'first'}} expected-error {{may not use the variable 'first' of static storage: it holds a pointer to data that is not const ('float *')}}
  z.store(first.load());
}
