// RUN: tilecc check -verify %s
// The same shift with the views made before the loop: they are in use across iterations, and
// tile i is read in one iteration and written in the next, so the loads and stores of the two
// views may not be reordered freely.
#include <tile/tile.hpp>

TILE_KERNEL void shift(tile::Tensor<float, 256>& z) {
  auto r = z.partition<64>(); // expected-note {{'r' is created here}}
  auto w = z.partition_mut<64>(); // expected-note {{'w' is created here}}
  for (int i = 2; i >= 0; --i) {
    auto t = r.load(i); // expected-note {{the access through 'r' that it may overlap}}
    w.store(t, i + 1); // expected-error {{a store through 'w' may write elements that 'r' also accesses}}
  }
}
