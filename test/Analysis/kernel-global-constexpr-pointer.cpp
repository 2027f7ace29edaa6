// RUN: tilecc check -verify %s
// constexpr makes the pointer constant, not the global it points to.
#include <tile/tile.hpp>

int counter = 0;
constexpr int* to_counter = &counter;

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  ++*to_counter; // expected-error {{tile kernels may not use the variable 'to_counter' of static storage: it holds a pointer to data that is not const}}
  z.store(tile::zeros<float, 64>());
}
