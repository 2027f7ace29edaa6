// RUN: tilecc check -verify %s
// One launch cannot pass an array both to a shared parameter and to a tile::Atomic one.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
TILE_KERNEL void accumulate(const tile::Tensor<float, tile::dyn>& x, tile::Atomic<float, tile::dyn>& acc) {
  acc.atomic_add(x.partition<128>().load(0), 0);
}

void f() {
  Arr a = make();
  auto op = tile::launch<accumulate>(a, a); // expected-error {{'a' is lent exclusively while another argument of this launch holds a shared loan on it}} expected-note {{'a' was lent shared here}}
  std::move(op).sync();
}
