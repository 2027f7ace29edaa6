// RUN: tilecc check -verify %s
// A static local inside a lambda the kernel calls.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  auto next = [] {
    static int n = 0; // expected-error {{tile kernels may not use the variable 'n' of static storage: it is not const}}
    return n++;
  };
  z.store(tile::full<float, 64>(float(next())));
}
