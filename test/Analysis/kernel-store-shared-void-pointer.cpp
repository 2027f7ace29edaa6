// RUN: tilecc check -verify %s
// Laundering the address of a shared view through const void*.
#include <tile/tile.hpp>

TILE_KERNEL void poke(tile::Tensor<float, 64>& z,
                      const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  const void* raw = &x;
  auto* w = static_cast<tile::Tensor<float, 64>*>(const_cast<void*>(raw)); // expected-note {{'x' is made writable by this cast}}
  w->store(z.load()); // expected-error {{store through the shared view 'x'}}
}
