// RUN: tilecc check -verify %s
// tile::unchecked in a kernel that is not marked TILE_UNSAFE.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) { // expected-note {{'k' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  auto p = z.partition_mut<64>();
  tile::unchecked::store(p, tile::zeros<float, 64>(), 1); // expected-error {{'tile::unchecked::store' is only allowed in a function marked TILE_UNSAFE or TILE_TRUSTED("why")}}
}
