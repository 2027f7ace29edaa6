// RUN: tilecc check -verify %s
// An index the analysis cannot follow (a product of unknowns) may be any tile.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z, int n) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  int i = n * n - n;
  p.store(tile::zeros<float, 64>(), 1); // expected-note {{the access through 'p' that it may overlap}}
  q.store(tile::ones<float, 64>(), i); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
}
