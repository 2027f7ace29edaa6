// RUN: tilecc check -verify %s
// A const pointer to a mutable global: the pointer is const, what it points to is not.
#include <tile/tile.hpp>

int counter = 0;
int* const to_counter = &counter;
const int* const read_only = &counter;

TILE_KERNEL void write(tile::Tensor<float, 64>& z) {
  *to_counter += 1; // expected-error {{tile kernels may not use the variable 'to_counter' of static storage: it holds a pointer to data that is not const ('int *const')}}
  z.store(tile::zeros<float, 64>());
}

TILE_KERNEL void read(tile::Tensor<float, 64>& z) {
  z.store(tile::full<float, 64>(float(*read_only)));
}
