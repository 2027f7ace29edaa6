// RUN: tilecc check -verify %s
// A loop written with goto is analysed as a loop.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  int i = 0;
again:
  p.store(tile::zeros<float, 64>(), i); // expected-note {{the access through 'p' that it may overlap}}
  q.store(tile::ones<float, 64>(), 3); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
  i = i + 1;
  if (i < 4)
    goto again;
}
