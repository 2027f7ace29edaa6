// RUN: tilecc check -verify %s
// Reinterpreting views is what TILE_UNSAFE opts into: the same casts in an unsafe helper are
// accepted (the unsafe call itself is the caller's responsibility).
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_UNSAFE inline float first(const tile::Tensor<float, 64>& x) {
  return (*reinterpret_cast<float* const*>(&x))[0];
}

TILE_KERNEL TILE_UNSAFE void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  z.store(x.load() + first(x));
}
