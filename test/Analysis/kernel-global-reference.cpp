// RUN: tilecc check -verify %s
// A global reference to a mutable global.
#include <tile/tile.hpp>

int counter = 0;
int& alias = counter;
const int& constant = counter;

TILE_KERNEL void write(tile::Tensor<float, 64>& z) {
  alias += 1; // expected-error {{tile kernels may not use the variable 'alias' of static storage: it refers to data that is not const}}
  z.store(tile::zeros<float, 64>());
}

TILE_KERNEL void read(tile::Tensor<float, 64>& z) {
  z.store(tile::full<float, 64>(float(constant)));
}
