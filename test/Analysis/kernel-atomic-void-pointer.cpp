// RUN: tilecc check -verify %s
// An Atomic's address converted to void* and back to a Tensor pointer: reported where the
// Atomic becomes something else (the implicit conversion to void*).
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, tile::Atomic<float, 64>& acc) { // expected-note {{'acc' is a 'tile::Atomic&' parameter}}
  void* raw = &acc; // expected-error {{'acc' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the implicit conversion to 'void *' would let it be read or written without atomics}} expected-error {{the implicit conversion from 'tile::Atomic<float, 64> *' to 'void *' reaches into the memory of a view}}
  static_cast<tile::Tensor<float, 64>*>(raw)->store(z.load()); // expected-error {{the static_cast from 'void *' to 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
}
