// RUN: tilecc check -verify %s
// Each instantiation is checked with its own template arguments: B / 64 is tile 1 for B = 64
// (disjoint) and tile 0 for B = 32 (the same tile as p's).
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void k(tile::Tensor<float, 4 * B>& z) {
  auto p = z.template partition_mut<B>(); // expected-note {{'p' is created here}}
  auto q = z.template partition_mut<B>(); // expected-note {{'q' is created here}}
  p.store(tile::zeros<float, B>(), 0); // expected-note {{the access through 'p' that it may overlap}}
  q.store(tile::ones<float, B>(), B / 64); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
}

template void k<64>(tile::Tensor<float, 256>&);
template void k<32>(tile::Tensor<float, 128>&);
