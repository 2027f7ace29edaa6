// RUN: tilecc check -verify %s
// A default member initializer that bumps a global counter.
#include <tile/tile.hpp>

inline int made = 0;
struct Counted {
  int id = made++; // expected-error {{may not use the variable 'made' of static storage: it is not const}}
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  Counted c{};
  z.store(tile::full<float, 64>(float(c.id)));
}
