// RUN: tilecc check -verify %s
// A read-only view of the program's own piece reads what a mutable view writes.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto r = z.partition<64>(); // expected-note {{'r' is created here}}
  auto w = z.partition_mut<64>(); // expected-note {{'w' is created here}}
  w.store(tile::zeros<float, 64>(), 2); // expected-note {{the access through 'w' that it may overlap}}
  auto t = r.load(2); // expected-error {{'r' may read elements that a store through 'w' writes}}
  w.store(t, 3);
}
