// RUN: tilecc check -verify %s
// Static data members are globals: a mutable one is refused, a constexpr one is fine.
#include <tile/tile.hpp>

struct Config {
  static inline int runs = 0;
  static constexpr float gain = 2.0f;
};

TILE_KERNEL void bump(tile::Tensor<float, 64>& z) {
  Config::runs++; // expected-error {{tile kernels may not use the variable 'runs' of static storage: it is not const}}
  z.store(tile::zeros<float, 64>());
}

TILE_KERNEL void scale(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  z.store(x.load() * Config::gain);
}
