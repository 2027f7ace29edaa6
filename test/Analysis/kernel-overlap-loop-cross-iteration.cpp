// RUN: tilecc check -verify %s
// Views created before a loop are in use across its iterations: tile k + 1 written through q in
// one iteration is tile k of p in the next.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  for (int i = 0; i < 3; ++i) {
    p.store(tile::zeros<float, 64>(), i); // expected-note {{the access through 'p' that it may overlap}}
    q.store(tile::ones<float, 64>(), i + 1); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
  }
}
