// RUN: tilecc check -verify %s
// A destructor that only touches its own object is accepted by the checker.
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <tile/tile.hpp>

struct Accumulator {
  tile::Tile<float, 64> sum = tile::zeros<float, 64>();
  ~Accumulator() { sum = tile::zeros<float, 64>(); }
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  Accumulator a; // expected-error {{an object whose destruction runs code (the destructor of 'Accumulator') is not supported in a tile kernel}}
  a.sum = a.sum + x.load();
  z.store(a.sum);
}
