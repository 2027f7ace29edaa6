// RUN: tilecc check -verify %s
// __builtin_memmove of a pointer to a shared view into a pointer to a writable one.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  tile::Tensor<float, 64>* w = &z;
  const tile::Tensor<float, 64>* r = &x;
  __builtin_memmove(&w, &r, sizeof w); // expected-error {{'__builtin_memmove' over 'tile::Tensor<float, 64> **' reaches into the memory of a view}}
  w->store(z.load()); // expected-error {{store through a view whose origin tilecc cannot trace}}
}
