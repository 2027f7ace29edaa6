// RUN: tilecc check -verify %s
// An index proven negative by the enclosing condition.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int i) {
  auto p = z.partition_mut<64>();
  if (i < 0)
    p.store(tile::zeros<float, 64>(), i); // expected-error {{tile index 'i' of 'p' is out of range: it is at most -1}}
  else
    p.store(tile::zeros<float, 64>(), i);
}
