// RUN: tilecc check -verify %s
// An index reassigned on one branch to the tile the other view writes.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, const tile::Tensor<float, 64>& x) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  int i = 2;
  if (tile::num_blocks() > 4)
    i = 1;
  p.store(x.load(), 1); // expected-note {{the access through 'p' that it may overlap}}
  q.store(x.load(), i); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
}
