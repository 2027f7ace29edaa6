// RUN: tilecc check -verify %s
// An array passed to a tile::Atomic parameter is written by the programs: the launch lends it
// exclusively, so reading it before the op has run is reported, and reading it after is fine.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
TILE_KERNEL void count(tile::Tensor<float, 128>& z, tile::Atomic<float, tile::dyn>& total) {
  total.atomic_add(z.load(), 0);
}

void f() {
  Arr z = make();
  Arr total = tile::zeros<float>({128});
  auto op = tile::launch<count>(z.partition_mut<128>(), total); // expected-note {{'total' was lent exclusively here}}
  auto h = total.to_host(); // expected-error {{read (to_host) of 'total' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
  auto after = total.to_host();
}
