// RUN: tilecc check -verify %s
// A temporary view used while another view of the piece is still in use.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  z.partition_mut<32>().store(tile::ones<float, 32>(), 1); // expected-note {{'z.partition_mut<32>()' is created here}} expected-note {{the access through 'z.partition_mut<32>()' that it may overlap}}
  p.store(tile::zeros<float, 64>(), 0); // expected-error {{views 'z.partition_mut<32>()' and 'p' of this program's piece may overlap}}
}
