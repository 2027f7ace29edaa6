// RUN: tilecc check -verify %s
// Arrays of views and of pointers to views are indexed and iterated as arrays, not by pointer
// arithmetic on a view: all accepted.
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, tile::Tensor<float, 256>& w) {
  auto a = z.partition_mut<64>();
  auto b = w.partition_mut<64>();
  tile::TiledViewMut<float, 64>* outs[2] = {&a, &b}; // expected-error {{the expression '{&a, &b}' is not supported in a tile kernel}}
  for (int i = 0; i < 2; ++i)
    outs[i]->store(tile::zeros<float, 64>(), 0);
  for (auto* out : outs)
    out->store(tile::ones<float, 64>(), 1);
}
