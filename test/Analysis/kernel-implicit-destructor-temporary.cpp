// RUN: tilecc check -verify %s
// A temporary is destroyed at the end of its full-expression.
#include <tile/tile.hpp>

struct Reset {
  const tile::Tensor<float, 64>* x;
  ~Reset() { const_cast<tile::Tensor<float, 64>*>(x)->store(tile::zeros<float, 64>()); } // expected-note {{made writable by this cast}} expected-error {{store through the shared view 'x'}}
  float scale() const { return 2.0f; }
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  z.store(x.load() * Reset{&x}.scale()); // expected-note {{in the device function called here}}
}
