// RUN: tilecc check -verify %s
// The Atomic is passed on correctly, and the device function launders it.
#include <tile/tile.hpp>

inline void reset(tile::Atomic<float, 64>& acc) {
  reinterpret_cast<tile::Tensor<float, 64>&>(acc).store(tile::zeros<float, 64>()); // expected-error {{'acc' is a tile::Atomic view, which accepts only atomic updates}} expected-error {{the reinterpret_cast from 'tile::Atomic<float, 64>' to 'tile::Tensor<float, 64>' reaches into the memory of a view}}
}

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   tile::Atomic<float, 64>& acc) { // expected-note {{'acc' is a 'tile::Atomic&' parameter}}
  acc.atomic_add(z.load(), 0);
  reset(acc); // expected-note {{in the device function called here}}
}
