// RUN: tilecc check -verify %s
// A helper object holding views, with methods that load and store through them.
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <tile/tile.hpp>

struct Copier {
  const tile::TiledView<float, 64>& src;
  tile::TiledViewMut<float, 64>& dst;
  float scale;
  void copy(int i) { dst.store(src.load(i) * scale, i); }
};

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 256>& x, float a) {
  auto src = x.partition<64>();
  auto dst = z.partition_mut<64>();
  Copier c{src, dst, a}; // expected-error {{an object of class 'struct Copier', whose field 'src' is not a scalar, a tile or such a class is not supported in a tile kernel}}
  for (int i = 0; i < 4; ++i)
    c.copy(i);
}
