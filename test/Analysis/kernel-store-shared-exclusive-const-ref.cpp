// RUN: tilecc check -verify %s
// The exclusive piece seen through a const reference may be written after a cast: it is
// this program's own memory.
// expected-no-diagnostics
#include <tile/tile.hpp>

inline void twice(const tile::Tensor<float, 64>& piece) {
  auto& w = const_cast<tile::Tensor<float, 64>&>(piece);
  w.store(piece.load() * 2.0f);
}

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
  twice(z);
}
