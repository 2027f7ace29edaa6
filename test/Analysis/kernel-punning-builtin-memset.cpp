// RUN: tilecc check -verify %s
// __builtin_memset over a view zeroes its handle: the next store goes through a null pointer.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  __builtin_memset(&z, 0, sizeof z); // expected-error {{'__builtin_memset' over 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
  z.store(tile::zeros<float, 64>());
}
