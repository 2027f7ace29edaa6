// RUN: tilecc check -verify %s
// A destructor runs at the end of its object's scope without a call in the source: its body is
// analysed like any other.
#include <tile/tile.hpp>

struct Reset {
  const tile::Tensor<float, 64>& x;
  ~Reset() { const_cast<tile::Tensor<float, 64>&>(x).store(tile::zeros<float, 64>()); } // expected-note {{made writable by this cast}} expected-error {{store through the shared view 'x'}}
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  Reset r{x};
  z.store(x.load());
} // expected-note {{in the device function called here}}
