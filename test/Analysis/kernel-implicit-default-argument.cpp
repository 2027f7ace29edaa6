// RUN: tilecc check -verify %s
// A default argument is evaluated at each call that leaves it out.
#include <tile/tile.hpp>

inline int calls = 0;
inline float scaled(float v, int n = ++calls) { return v * float(n); } // expected-error {{may not use the variable 'calls' of static storage: it is not const}}

TILE_KERNEL void k(tile::Tensor<float, 64>& z, float s) {
  z.store(tile::full<float, 64>(scaled(s)));
}
