// RUN: tilecc check -verify %s
// Pointers and references to views that stay within the views' scope are fine.
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <tile/tile.hpp>

struct Pair {
  tile::TiledViewMut<float, 64>* out;
  const tile::Tensor<float, 256>* in;
};

inline void copy(Pair& p, int i) { p.out->store(p.in->partition<64>().load(i), i); }

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 256>& x) {
  auto dst = z.partition_mut<64>();
  Pair pair{&dst, &x}; // expected-error {{an object of class 'struct Pair', whose field 'out' is not a scalar, a tile or such a class is not supported in a tile kernel}}
  for (int i = 0; i < 4; ++i)
    copy(pair, i);
}
