// RUN: tilecc check -verify %s
// A destructor that only touches its own object is accepted by the checker.
// expected-no-diagnostics
#include <tile/tile.hpp>

struct Accumulator {
  tile::Tile<float, 64> sum = tile::zeros<float, 64>();
  ~Accumulator() { sum = tile::zeros<float, 64>(); }
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  Accumulator a;
  a.sum = a.sum + x.load();
  z.store(a.sum);
}
