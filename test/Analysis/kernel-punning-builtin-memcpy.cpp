// RUN: tilecc check -verify %s
// __builtin_memcpy over a view object copies the shared view's handle into the exclusive one.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  __builtin_memcpy(&z, &x, sizeof z); // expected-error {{'__builtin_memcpy' over 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
  z.store(x.load());
}

TILE_KERNEL void numbers(tile::Tensor<float, 64>& z, float s) {
  int bits = 0;
  __builtin_memcpy(&bits, &s, sizeof bits);
  z.store(tile::full<float, 64>(float(bits & 1)));
}
