// RUN: tilecc check -verify %s
// A store through a shared view made writable with const_cast.
#include <tile/tile.hpp>

TILE_KERNEL void scale(tile::Tensor<float, 64>& z,
                       const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view: a 'const tile::Tensor&' parameter}}
  auto t = x.load() * 2.0f;
  const_cast<tile::Tensor<float, 64>&>(x) // expected-note {{'x' is made writable by this cast}}
      .store(t); // expected-error {{store through the shared view 'x'; only this program's exclusive piece is writable}}
  z.store(t);
}
