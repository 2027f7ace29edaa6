// RUN: tilecc check -verify %s
// A view's first member is its element pointer: reinterpreting the view object as a pointer
// to that pointer writes a shared input without a store.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  auto** raw = reinterpret_cast<float**>(const_cast<tile::Tensor<float, 64>*>(&x)); // expected-error {{the reinterpret_cast from 'tile::Tensor<float, 64> *' to 'float **' reaches into the memory of a view}}
  (*raw)[3] = 2.0f;
  z.store(x.load());
}
