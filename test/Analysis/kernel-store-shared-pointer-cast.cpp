// RUN: tilecc check -verify %s
// A pointer to a shared view, cast to a pointer to a writable one.
#include <tile/tile.hpp>

TILE_KERNEL void poke(tile::Tensor<float, 64>& z,
                      const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  const tile::Tensor<float, 64>* px = &x;
  auto* w = const_cast<tile::Tensor<float, 64>*>(px); // expected-note {{'x' is made writable by this cast}}
  w->store(z.load()); // expected-error {{store through the shared view 'x'}}
}
