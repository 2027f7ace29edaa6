// RUN: tilecc check -verify %s
// A read-only tiled view reinterpreted as a mutable one.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, 256>& x) { // expected-note {{'x' is a shared view}}
  auto tiles = x.partition<64>();
  auto& w = reinterpret_cast<tile::TiledViewMut<float, 64>&>(tiles); // expected-note {{'x' is made writable by this cast}} expected-error {{the reinterpret_cast from 'TiledView<float, 64>' to 'tile::TiledViewMut<float, 64>' reaches into the memory of a view}}
  w.store(z.load(), 1); // expected-error {{store through 'tiles', a view of the shared view 'x'}}
}
