// RUN: tilecc check -verify %s
// Two mutable partitions of one piece with different tile shapes, both stored to the same
// elements while both are in use.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<32>(); // expected-note {{'q' is created here}}
  p.store(tile::zeros<float, 64>(), 0); // expected-note {{the access through 'p' that it may overlap}}
  q.store(tile::ones<float, 32>(), 1); // expected-error {{views 'p' and 'q' of this program's piece may overlap while both are in use: a store through 'q' may write elements that 'p' also accesses}}
}
