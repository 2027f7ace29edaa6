// RUN: tilecc check -verify %s
// A lambda in a safe kernel is safe code: it may not use tile::unchecked.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) { // expected-note {{'k' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  auto p = z.partition_mut<64>();
  auto get = [&](int i) {
    return tile::unchecked::load(p, i); // expected-error {{'tile::unchecked::load' is only allowed in a function marked TILE_UNSAFE}}
  };
  p.store(get(0) + 1.0f, 0); // expected-note {{in the device function called here}}
}
