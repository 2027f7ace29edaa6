// RUN: tilecc check -verify %s
// (k + 4) % 4 is k: the read and the write meet.
#include <tile/tile.hpp>

TILE_KERNEL void rotate(tile::Tensor<float, 256>& z) {
  for (int k = 0; k < 4; ++k) {
    auto src = z.partition<64>(); // expected-note {{'src' is created here}}
    auto dst = z.partition_mut<64>(); // expected-note {{'dst' is created here}}
    dst.store(tile::zeros<float, 64>(), (k + 4) % 4); // expected-note {{the access through 'dst' that it may overlap}}
    auto t = src.load(k); // expected-error {{views 'dst' and 'src' of this program's piece may overlap while both are in use: 'src' may read elements that a store through 'dst' writes}}
    (void)t;
  }
}
