// RUN: tilecc check -verify %s
// (b + 2) % 2 is b % 2: the same tile for every block.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  const auto b = tile::block_id(0);
  p.store(tile::zeros<float, 64>(), b % 2); // expected-note {{the access through 'p' that it may overlap}}
  q.store(tile::ones<float, 64>(), (b + 2) % 2); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
}
