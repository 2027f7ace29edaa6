// RUN: tilecc check -verify %s
// A C-style cast to a reference drops const as quietly as const_cast does.
#include <tile/tile.hpp>

TILE_KERNEL void poke(tile::Tensor<float, 64>& z,
                      const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  auto& w = (tile::Tensor<float, 64>&)x; // expected-note {{'x' is made writable by this cast}}
  w.store(z.load()); // expected-error {{store through the shared view 'x'}}
}
