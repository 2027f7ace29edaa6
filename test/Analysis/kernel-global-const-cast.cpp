// RUN: tilecc check -verify %s
// A constant global written through a cast that removes its const: every program writes it.
#include <tile/tile.hpp>

const int kLimit = 4;
constexpr float kScale[2] = {1.0f, 2.0f};

TILE_KERNEL void reference(tile::Tensor<float, 64>& z) {
  const_cast<int&>(kLimit) = 8; // expected-error {{tile kernels may not use the variable 'kLimit' of static storage: a cast removes its const}}
  z.store(tile::zeros<float, 64>());
}

TILE_KERNEL void pointer(tile::Tensor<float, 64>& z) {
  *(float*)&kScale[1] = 3.0f; // expected-error {{tile kernels may not use the variable 'kScale' of static storage: a cast removes its const}}
  z.store(tile::zeros<float, 64>());
}
