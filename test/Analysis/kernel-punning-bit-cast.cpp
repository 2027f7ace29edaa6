// RUN: tilecc check -verify %s
// std::bit_cast of a view's address to an integer; bit casts of numbers are fine.
#include <bit>
#include <cstdint>
#include <tile/tile.hpp>

TILE_KERNEL void address(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  auto bits = std::bit_cast<std::uintptr_t>(&x); // expected-error {{the std::bit_cast from 'const tile::Tensor<float, 64> *' to 'unsigned long' reaches into the memory of a view}}
  auto* w = std::bit_cast<tile::Tensor<float, 64>*>(bits); // expected-error {{the std::bit_cast from 'unsigned long' to 'tile::Tensor<float, 64> *' reaches into the memory of a view}} expected-note {{made writable by this cast}}
  w->store(z.load()); // expected-error {{store through the shared view 'x'}}
}

TILE_KERNEL void number(tile::Tensor<float, 64>& z, float s) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(s);
  z.store(tile::full<float, 64>(float(u >> 31)));
}
