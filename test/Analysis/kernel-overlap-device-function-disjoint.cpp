// RUN: tilecc check -verify %s
// A device function that computes the tile index from its argument: 2k and 2k + 1.
// expected-no-diagnostics
#include <tile/tile.hpp>

inline int twice(int k) { return 2 * k; }

inline void put(tile::TiledViewMut<float, 64>& v, int i, float value) {
  v.store(tile::full<float, 64>(value), i);
}

TILE_KERNEL void k(tile::Tensor<float, 512>& z) {
  auto even = z.partition_mut<64>();
  auto odd = z.partition_mut<64>();
  for (int k = 0; k < 4; ++k) {
    put(even, twice(k), 0.0f);
    put(odd, twice(k) + 1, 1.0f);
  }
}
