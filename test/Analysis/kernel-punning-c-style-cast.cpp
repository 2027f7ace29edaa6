// RUN: tilecc check -verify %s
// A C-style cast that reinterprets a view pointer as an element pointer.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  float*** raw = (float***)&x; // expected-error {{the C-style cast from 'const tile::Tensor<float, 64> *' to 'float ***' reaches into the memory of a view}}
  (**raw)[0] = 1.0f;
  z.store(x.load());
}
