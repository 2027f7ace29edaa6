// RUN: tilecc check -verify %s
// A TILE_UNSAFE constructor is an unsafe call, also when the object is made by a declaration.
#include <tile/tile.hpp>

struct Raw {
  TILE_UNSAFE Raw() {}
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z) { // expected-note {{'k' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  Raw r; // expected-error {{calling the TILE_UNSAFE function 'Raw::Raw' is only allowed in a function marked TILE_UNSAFE}}
  z.store(tile::zeros<float, 64>());
}
