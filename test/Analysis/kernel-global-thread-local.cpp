// RUN: tilecc check -verify %s
// A thread_local is shared by the programs one CPU worker runs, and by every program of a block
// on the GPU: shared mutable state all the same.
#include <tile/tile.hpp>

thread_local int scratch = 0;

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  scratch += 1; // expected-error {{tile kernels may not use the variable 'scratch' of static storage: it is not const}}
  z.store(tile::zeros<float, 64>());
}
