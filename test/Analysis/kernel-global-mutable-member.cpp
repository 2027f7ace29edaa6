// RUN: tilecc check -verify %s
// A const global whose class has a mutable member can be written through a const method.
#include <tile/tile.hpp>

struct Stats {
  mutable int hits = 0;
  void hit() const { ++hits; }
};
const Stats stats{};

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  stats.hit(); // expected-error {{tile kernels may not use the variable 'stats' of static storage: it has the mutable member 'hits'}}
  z.store(tile::zeros<float, 64>());
}
