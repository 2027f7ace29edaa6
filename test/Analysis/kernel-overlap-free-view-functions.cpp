// RUN: tilecc check -verify %s
// The free forms of the view members are the same views and accesses to the overlap check.
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = tile::partition_mut<B>(z); // expected-note {{'p' is created here}}
  auto q = tile::partition_mut<B / 2>(z); // expected-note {{'q' is created here}}
  tile::store(q, tile::ones<float, B / 2>(), 1); // expected-note {{the access through 'q' that it may overlap}}
  tile::store(p, tile::zeros<float, B>(), 0); // expected-error {{views 'q' and 'p' of this program's piece may overlap}}
}

template void k<64>(tile::Tensor<float, 256>&);
