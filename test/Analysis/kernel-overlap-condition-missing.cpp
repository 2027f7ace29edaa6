// RUN: tilecc check -verify %s
// Without the condition, a scalar parameter may be any tile.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int i) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  if (i != 2) {
    p.store(tile::zeros<float, 64>(), i - 1); // expected-note {{the access through 'p' that it may overlap}}
    q.store(tile::ones<float, 64>(), 2); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
  }
}
