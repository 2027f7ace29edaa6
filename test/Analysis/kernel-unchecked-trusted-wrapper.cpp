// RUN: tilecc check -verify %s
// A TILE_TRUSTED device function wraps unchecked access and is callable from safe code.
// expected-no-diagnostics
#include <tile/tile.hpp>

TILE_TRUSTED("i is in [0, 4) and the piece holds 4 whole tiles")
inline void put(tile::TiledViewMut<float, 64>& p, tile::Tile<float, 64> t, int i) {
  tile::unchecked::store(p, t, i & 3);
}

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>();
  for (int i = 0; i < 4; ++i)
    put(p, tile::full<float, 64>(float(i)), i);
}
