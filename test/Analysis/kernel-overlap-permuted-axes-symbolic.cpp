// RUN: tilecc check -verify %s
// Tile (i, j) and tile (j, i) are the same tile when i == j.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64, 64>& z, int i, int j) {
  auto p = z.partition_mut<32, 32>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<32, 32>(); // expected-note {{'q' is created here}}
  p.store(tile::zeros<float, 32, 32>(), i, j); // expected-note {{the access through 'p' that it may overlap}}
  q.store(tile::ones<float, 32, 32>(), j, i); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
}
