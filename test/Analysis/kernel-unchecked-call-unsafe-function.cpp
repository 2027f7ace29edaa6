// RUN: tilecc check -verify %s
// A TILE_UNSAFE device function may be called only from TILE_UNSAFE or TILE_TRUSTED code.
#include <tile/tile.hpp>

TILE_UNSAFE inline void raw_put(tile::TiledViewMut<float, 64>& p, int i) {
  tile::unchecked::store(p, tile::zeros<float, 64>(), i);
}

TILE_KERNEL void k(tile::Tensor<float, 256>& z) { // expected-note {{'k' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  auto p = z.partition_mut<64>();
  raw_put(p, 2); // expected-error {{calling the TILE_UNSAFE function 'raw_put' is only allowed in a function marked TILE_UNSAFE or TILE_TRUSTED("why")}}
}
