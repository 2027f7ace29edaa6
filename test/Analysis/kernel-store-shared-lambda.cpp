// RUN: tilecc check -verify %s
// A lambda writing a captured shared view.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  auto put = [&](tile::Tile<float, 64> t) {
    const_cast<tile::Tensor<float, 64>&>(x).store(t); // expected-error {{store through the shared view 'x'}} expected-note {{'x' is made writable by this cast}}
  };
  put(z.load()); // expected-note {{in the device function called here}}
}
