// RUN: tilecc check -verify %s
// Pointer arithmetic on a pointer to a view walks to whatever lies beyond the view object.
#include <tile/tile.hpp>

TILE_KERNEL void add(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  tile::Tensor<float, 64>* w = &z;
  (w + 1)->store(x.load()); // expected-error {{pointer arithmetic on 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
}

TILE_KERNEL void increment(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  tile::Tensor<float, 64>* w = &z;
  ++w; // expected-error {{pointer arithmetic on 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
  w->store(x.load());
}

TILE_KERNEL void subscript(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  tile::Tensor<float, 64>* w = &z;
  w[1].store(x.load()); // expected-error {{indexing the pointer 'tile::Tensor<float, 64> *' reaches into the memory of a view}} expected-error {{store through a view whose origin tilecc cannot trace}}
}

TILE_KERNEL void compound(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  const tile::Tensor<float, 64>* r = &x;
  r -= 1; // expected-error {{pointer arithmetic on 'const tile::Tensor<float, 64> *' reaches into the memory of a view}}
  z.store(r->load());
}
