// REQUIRES: plugin
// RUN: %clang-plugin -Xclang -verify %s
// Clang's -verify checks the plugin's findings as it checks its own: a kernel rule (an
// allocation in a kernel) and a clean kernel beside it.
#include <tile/tile.hpp>

TILE_KERNEL void copy(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

TILE_KERNEL void bad(tile::Tensor<float, 64>& z) {
  float* scratch = new float[64]; // expected-error {{[tile-kernel-allocation]}}
  delete[] scratch;               // expected-error {{[tile-kernel-allocation]}}
  z.store(z.load());
}
