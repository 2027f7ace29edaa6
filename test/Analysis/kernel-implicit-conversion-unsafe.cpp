// RUN: tilecc check -verify %s
// A TILE_UNSAFE conversion operator reached by an implicit conversion.
#include <tile/tile.hpp>

struct Scale {
  TILE_UNSAFE operator float() const { return 2.0f; }
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z) { // expected-note {{'k' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  Scale s;
  float f = s; // expected-error {{calling the TILE_UNSAFE function 'Scale::operator float' is only allowed in a function marked TILE_UNSAFE}}
  z.store(tile::full<float, 64>(f));
}
