// RUN: tilecc check -verify %s
// Row tiles and column tiles of one 2-D piece cross: row tile 1 meets column tile 0.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64, 64>& z) {
  auto rows = z.partition_mut<16, 64>(); // expected-note {{'rows' is created here}}
  auto cols = z.partition_mut<64, 16>(); // expected-note {{'cols' is created here}}
  rows.store(tile::zeros<float, 16, 64>(), 1, 0); // expected-note {{the access through 'rows' that it may overlap}}
  cols.store(tile::ones<float, 64, 16>(), 0, 0); // expected-error {{views 'rows' and 'cols' of this program's piece may overlap}}
}
