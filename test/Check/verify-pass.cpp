// RUN: tilecc check -verify %s
// -verify: every expected diagnostic is reported and nothing else, so the exit status is 0.
#include <tile/tile.hpp>

int counter;

TILE_KERNEL void k(tile::Tensor<float, 128>& z, int n) {
  if (n < 0)
    throw n; // expected-error {{exceptions are not allowed in a tile kernel}}
  // expected-error@+1 {{[tile-kernel-allocation]}}
  float* p = new float[4];
  z.store(z.load() + p[0]);
  delete[] p;
  // expected-error@-1 {{dynamic allocation is not allowed}}
  z.store(z.load() + float(counter)); /* expected-error-re {{variable '{{[a-z]+}}' of static storage: it is not const}} */
}

TILE_KERNEL void twice(tile::Tensor<float, 128>& z, int n) {
  z.store(z.load() + float(counter + n)); // expected-error 1 {{counter}}
}
