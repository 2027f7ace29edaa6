// RUN: tilecc check -verify %s
// The destructor of a member runs when its enclosing object is destroyed, after the enclosing
// (implicit) destructor's body.
#include <tile/tile.hpp>

struct Reset {
  const tile::Tensor<float, 64>* x;
  ~Reset() { const_cast<tile::Tensor<float, 64>*>(x)->store(tile::zeros<float, 64>()); } // expected-note {{made writable by this cast}} expected-error {{store through the shared view 'x'}}
};
struct Holder {
  Reset reset;
  float scale;
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  Holder h{{&x}, 2.0f};
  z.store(x.load() * h.scale);
} // expected-note {{in the device function called here}}
