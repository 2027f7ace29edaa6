// RUN: tilecc check -verify %s
// An Atomic parameter is taken by (non-const) reference: const or by value it is no kernel parameter.
#include <tile/tile.hpp>

TILE_KERNEL void by_const_ref(tile::Tensor<float, 64>& z,
                              const tile::Atomic<float, 64>& acc) {} // expected-error {{kernel parameter 'acc' has type 'const tile::Atomic<float, 64> &'; a tile kernel takes 'tile::Tensor<...>&' (exclusive), 'const tile::Tensor<...>&' (shared), 'tile::Atomic<...>&' (atomic updates) or scalars by value}}

TILE_KERNEL void by_pointer(tile::Tensor<float, 64>& z,
                            tile::Atomic<float, 64>* acc) {} // expected-error {{kernel parameter 'acc' has type 'tile::Atomic<float, 64> *'}}
