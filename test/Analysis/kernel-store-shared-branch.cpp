// RUN: tilecc check -verify %s
// A pointer that is the exclusive piece on one branch and a forged shared view on the other.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, 64>& x, // expected-note {{'x' is a shared view}}
                   int which) {
  tile::Tensor<float, 64>* target = &z;
  if (which > 0)
    target = const_cast<tile::Tensor<float, 64>*>(&x); // expected-note {{'x' is made writable by this cast}}
  target->store(tile::zeros<float, 64>()); // expected-error {{store through the shared view 'x'}}
}
