// RUN: tilecc check -verify %s
// A static local is one variable for every tile program at once; constant tables are fine.
#include <tile/tile.hpp>

TILE_KERNEL void counter(tile::Tensor<float, 64>& z) {
  static int calls = 0; // expected-error {{tile kernels may not use the variable 'calls' of static storage: it is not const, so every tile program could write it at once}}
  ++calls;
  z.store(tile::full<float, 64>(float(calls)));
}

TILE_KERNEL void table(tile::Tensor<float, 64>& z, int i) {
  static constexpr float weights[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  static const int bias = 3;
  z.store(tile::full<float, 64>(weights[i & 3] + float(bias)));
}
