// RUN: tilecc check -verify %s
// A generic lambda and a device function template.
// expected-no-diagnostics
#include <tile/tile.hpp>

template <int T>
void put(tile::TiledViewMut<float, T>& p, const tile::Tile<float, T>& t, int i) {
  p.store(t, i);
}

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 256>& x) {
  auto src = x.partition<64>();
  auto dst = z.partition_mut<64>();
  auto step = [&](auto i) { put(dst, src.load(i) + 1.0f, i); };
  for (int i = 0; i < 4; ++i)
    step(i);
}
