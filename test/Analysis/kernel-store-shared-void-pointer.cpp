// RUN: tilecc check -verify %s
// Laundering the address of a shared view through const void*.
#include <tile/tile.hpp>

TILE_KERNEL void poke(tile::Tensor<float, 64>& z,
                      const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  const void* raw = &x; // expected-error {{the implicit conversion from 'const tile::Tensor<float, 64> *' to 'const void *' reaches into the memory of a view}}
  auto* w = static_cast<tile::Tensor<float, 64>*>(const_cast<void*>(raw)); // expected-note {{'x' is made writable by this cast}} expected-error {{the static_cast from 'void *' to 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
  w->store(z.load()); // expected-error {{store through the shared view 'x'}}
}
