// RUN: tilecc check -verify %s
// A struct holding a pointer to a shared view reinterpreted as one holding a writable pointer.
#include <tile/tile.hpp>

struct In {
  const tile::Tensor<float, 64>* view;
};
struct Out {
  tile::Tensor<float, 64>* view;
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  In in{&x};
  Out& out = reinterpret_cast<Out&>(in); // expected-error {{the reinterpret_cast from 'In' to 'Out' reaches into the memory of a view}}
  out.view->store(z.load()); // expected-error {{store through}}
}
