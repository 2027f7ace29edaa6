// RUN: tilecc check -verify %s
// A lambda storing through a captured view is an access through that view where it is called.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<32>(); // expected-note {{'q' is created here}}
  auto half = [&](int i) {
    q.store(tile::ones<float, 32>(), i); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
  };
  p.store(tile::zeros<float, 64>(), 1); // expected-note {{the access through 'p' that it may overlap}}
  half(0);
  half(3); // expected-note {{in the device function called here}}
}
