// RUN: tilecc check -verify %s
// Reinterpreting views is what TILE_UNSAFE opts into: the same casts in an unsafe helper are
// accepted (the unsafe call itself is the caller's responsibility).
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <tile/tile.hpp>

TILE_UNSAFE inline float first(const tile::Tensor<float, 64>& x) {
  return (*reinterpret_cast<float* const*>(&x))[0]; // expected-error {{the expression '(*reinterpret_cast<float* const*>(&x))[0]' is not supported in a tile kernel}}
}

TILE_KERNEL TILE_UNSAFE void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  z.store(x.load() + first(x));
}
