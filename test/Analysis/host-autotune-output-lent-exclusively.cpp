// RUN: tilecc check -verify %s
// tile::autotune partitions a whole output array for its candidates' Tensor& parameters: the op
// lends it exclusively (reading it before the op has run is reported, after is fine) and borrows
// its inputs shared.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
template <int B>
TILE_KERNEL void twice(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 2.0f);
}

void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::autotune<twice<128>, twice<256>>(z, x); // expected-note {{'z' was lent exclusively here}}
  auto early = z.to_host(); // expected-error {{read (to_host) of 'z' while the unfinished operation 'op' holds an exclusive loan on it}}
  auto input = x.to_host();
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
  auto after = z.to_host();
}
