// RUN: tilecc check -verify %s
// An Atomic moved into a local Tensor through a cast.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   tile::Atomic<float, 64>& acc) { // expected-note {{'acc' is a 'tile::Atomic&' parameter}}
  tile::Tensor<float, 64> local = std::move(reinterpret_cast<tile::Tensor<float, 64>&>(acc)); // expected-error {{'acc' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the reinterpret_cast to 'tile::Tensor<float, 64>&'}} expected-error {{the reinterpret_cast from 'tile::Atomic<float, 64>' to 'tile::Tensor<float, 64>' reaches into the memory of a view}}
  local.store(z.load());
}
