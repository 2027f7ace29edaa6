// RUN: tilecc check -verify %s
// The address of a shared view carried through an integer is still the shared view.
#include <cstdint>
#include <tile/tile.hpp>

TILE_KERNEL void poke(tile::Tensor<float, 64>& z,
                      const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  std::uintptr_t bits = reinterpret_cast<std::uintptr_t>(&x); // expected-error {{the reinterpret_cast from 'const tile::Tensor<float, 64> *' to 'std::uintptr_t' reaches into the memory of a view}}
  bits += 0;
  auto* w = reinterpret_cast<tile::Tensor<float, 64>*>(bits); // expected-note {{'x' is made writable by this cast}} expected-error {{the reinterpret_cast from 'std::uintptr_t' to 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
  w->store(z.load()); // expected-error {{store through the shared view 'x'}}
}
