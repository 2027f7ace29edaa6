// RUN: tilecc check -verify %s
// Views made inside a loop body live for one iteration: reading tile i and writing tile i + 1
// through two of them never touch one tile in the same iteration.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_KERNEL void shift(tile::Tensor<float, 256>& z) {
  for (int i = 2; i >= 0; --i) {
    auto r = z.partition<64>();
    auto w = z.partition_mut<64>();
    w.store(r.load(i), i + 1);
  }
}
