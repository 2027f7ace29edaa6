// RUN: tilecc check -verify %s
// Pointers to views kept in arrays (a C array and std::array) and picked by index: stores
// through them are stores through one of the views they may be.
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <array>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, tile::Tensor<float, 256>& w) {
  auto a = z.partition_mut<64>();
  auto b = w.partition_mut<64>();
  tile::TiledViewMut<float, 64>* outs[2] = {&a, &b}; // expected-error {{the expression '{&a, &b}' is not supported in a tile kernel}}
  std::array<tile::TiledViewMut<float, 64>*, 2> same{&a, &b};
  for (int i = 0; i < 2; ++i) {
    outs[i]->store(tile::zeros<float, 64>(), 0);
    same[i]->store(tile::ones<float, 64>(), 1);
  }
  for (auto* out : outs)
    out->store(tile::zeros<float, 64>(), 2);
}
