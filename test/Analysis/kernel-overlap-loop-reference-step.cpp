// RUN: tilecc check -verify %s
// A variable the loop changes through a reference declared in its body is not the same on
// every iteration: the tile 'p' stores at 'a' reaches the tile 'q' stores at 'b'.
#include <tile/tile.hpp>

TILE_KERNEL void through_local_reference(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  int a = 0;
  for (int i = 0; i < 2; ++i) {
    p.store(tile::zeros<float, 64>(), a); // expected-note {{the access through 'p' that it may overlap}}
    q.store(tile::ones<float, 64>(), 2); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
    int& r = a;
    r += 2;
  }
}

TILE_KERNEL void unchanged(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>();
  auto q = z.partition_mut<64>();
  int a = 0;
  for (int i = 0; i < 2; ++i) {
    p.store(tile::zeros<float, 64>(), a);
    q.store(tile::ones<float, 64>(), 2);
    const int& r = a;
    (void)r;
  }
}
