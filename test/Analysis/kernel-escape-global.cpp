// RUN: tilecc check -verify %s
// A global pointer to a view: a mutable global (kernel rule) and an escape.
#include <tile/tile.hpp>

const tile::Tensor<float, tile::dyn>* g_input = nullptr;

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, tile::dyn>& x) { // expected-note {{'x' is a parameter of the kernel}}
  g_input = &x; // expected-error {{the view 'x' escapes the tile program: it is stored in the static variable 'g_input'}} expected-error {{may not use the variable 'g_input' of static storage: it is not const}}
  z.store(tile::load_tile_like(x, z));
}
