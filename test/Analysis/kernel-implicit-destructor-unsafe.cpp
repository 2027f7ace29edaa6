// RUN: tilecc check -verify %s
// A TILE_UNSAFE destructor is an unsafe call, though nothing in the kernel calls it by name.
#include <tile/tile.hpp>

struct Guard {
  TILE_UNSAFE ~Guard() {}
};

TILE_KERNEL void safe(tile::Tensor<float, 64>& z) { // expected-note {{'safe' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  Guard g;
  z.store(tile::zeros<float, 64>());
} // expected-error {{calling the TILE_UNSAFE function 'Guard::~Guard' is only allowed in a function marked TILE_UNSAFE}}

TILE_KERNEL TILE_UNSAFE void unsafe(tile::Tensor<float, 64>& z) {
  Guard g;
  z.store(tile::zeros<float, 64>());
}
