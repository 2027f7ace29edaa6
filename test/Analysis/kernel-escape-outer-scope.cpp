// RUN: tilecc check -verify %s
// The address of a view kept in a variable of an enclosing scope outlives the view.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  tile::TiledViewMut<float, 64>* keep = nullptr;
  {
    auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
    keep = &p; // expected-error {{the view 'p' escapes its scope: it is stored in 'keep', which outlives it}}
    keep->store(tile::zeros<float, 64>(), 0);
  }
}
