// RUN: tilecc check -verify %s
// An Atomic reinterpreted as an exclusive Tensor to store into it without atomics.
#include <tile/tile.hpp>

TILE_KERNEL void histogram(tile::Tensor<int32_t, 128>& x,
                           tile::Atomic<int32_t, 128>& counts) { // expected-note {{'counts' is a 'tile::Atomic&' parameter: every tile program updates it at the same time}}
  auto& plain = reinterpret_cast<tile::Tensor<int32_t, 128>&>(counts); // expected-error {{'counts' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the reinterpret_cast to 'tile::Tensor<int32_t, 128>&' would let it be read or written without atomics}} expected-error {{the reinterpret_cast from 'tile::Atomic<int32_t, 128>' to 'tile::Tensor<int32_t, 128>' reaches into the memory of a view}}
  plain.store(plain.load() + x.load());
}
