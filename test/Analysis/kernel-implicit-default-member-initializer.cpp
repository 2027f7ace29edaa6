// RUN: tilecc check -verify %s
// A default member initializer runs whenever an object is made without that member: the
// functions it calls are part of the kernel.
#include <cstdio>
#include <tile/tile.hpp>

struct Logged {
  int rank = std::puts("made"); // expected-error {{call to 'puts', whose body tilecc cannot see, is not allowed in a tile kernel}}
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  Logged l;
  z.store(tile::full<float, 64>(float(l.rank)));
}
