// RUN: tilecc check -verify %s
// A conversion operator runs where the object is converted, with no call in the source.
#include <tile/tile.hpp>

struct Scale {
  const tile::Tensor<float, 64>* x;
  operator float() const {
    const_cast<tile::Tensor<float, 64>*>(x)->store(tile::zeros<float, 64>()); // expected-note {{made writable by this cast}} expected-error {{store through the shared view 'x'}}
    return 2.0f;
  }
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  Scale s{&x};
  float f = s; // expected-note {{in the device function called here}}
  z.store(x.load() * f);
}
