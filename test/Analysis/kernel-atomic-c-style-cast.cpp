// RUN: tilecc check -verify %s
// A C-style cast of an Atomic to a shared view, to read it with a plain load.
#include <tile/tile.hpp>

TILE_KERNEL void peek(tile::Tensor<float, 64>& z,
                      tile::Atomic<float, 64>& acc) { // expected-note {{'acc' is a 'tile::Atomic&' parameter}}
  z.store(((const tile::Tensor<float, 64>&)acc).load()); // expected-error {{'acc' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the C-style cast to 'const tile::Tensor<float, 64>&'}} expected-error {{the C-style cast from 'tile::Atomic<float, 64>' to 'const tile::Tensor<float, 64>' reaches into the memory of a view}}
}
