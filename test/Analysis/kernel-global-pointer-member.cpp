// RUN: tilecc check -verify %s
// A constant object holding a pointer to mutable data.
#include <tile/tile.hpp>

int counter = 0;
struct Sink {
  int* target;
};
constexpr Sink sink{&counter};

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  *sink.target += 1; // expected-error {{tile kernels may not use the variable 'sink' of static storage: it holds a pointer to data that is not const ('int *')}}
  z.store(tile::zeros<float, 64>());
}
