// RUN: tilecc check -verify %s
// The library's internal accessor hands out a view's raw element pointer: refused in safe code,
// allowed in a TILE_UNSAFE function.
#include <tile/tile.hpp>

TILE_KERNEL void poke(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  float* p = const_cast<float*>(tile::detail::TensorAccess::data(x)); // expected-error {{'tile::detail::TensorAccess::data' is internal to the tile library}}
  p[0] = 1.0f;
  z.store(x.load());
}

TILE_UNSAFE inline float first(const tile::Tensor<float, 64>& x) {
  return tile::detail::TensorAccess::data(x)[0];
}

TILE_KERNEL TILE_UNSAFE void peek(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  z.store(x.load() + first(x));
}
