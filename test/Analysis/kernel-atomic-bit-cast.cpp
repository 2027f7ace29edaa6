// RUN: tilecc check -verify %s
// std::bit_cast of an Atomic into a Tensor: the cast inside the library is reported at the call.
#include <bit>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   tile::Atomic<float, 64>& acc) { // expected-note {{'acc' is a 'tile::Atomic&' parameter}}
  auto copy = std::bit_cast<tile::Tensor<float, 64>>(acc); // expected-error {{'acc' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the bit cast to}} expected-error {{the std::bit_cast from 'tile::Atomic<float, 64>' to 'tile::Tensor<float, 64>' reaches into the memory of a view}}
  copy.store(z.load());
}
