// RUN: tilecc check -verify %s
// A static local in a device function the kernel calls.
#include <tile/tile.hpp>

inline int next() {
  static int n = 0; // expected-error {{tile kernels may not use the variable 'n' of static storage: it is not const}}
  return n++;
}

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  z.store(x.load() + float(next()));
}
