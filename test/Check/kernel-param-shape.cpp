// RUN: not tilecc check %s 2>&1 | FileCheck %s
// A Tensor or Atomic parameter with no extents or one that is neither positive nor tile::dyn
// is refused at the parameter (its class is never instantiated, so its own checks never run).
#include <tile/tile.hpp>

TILE_KERNEL void rank0(tile::Tensor<float>& y) {}
// CHECK: kernel-param-shape.cpp:[[@LINE-1]]:45: error: kernel parameter 'y' has type 'tile::Tensor<float> &', of rank 0; a tile::Tensor or tile::Atomic has 1 to 4 extents, each positive or tile::dyn [tile-kernel-param-shape]

TILE_KERNEL void zero(tile::Tensor<float, 0>& y, const tile::Tensor<float, tile::dyn>& x) {}
// CHECK: kernel-param-shape.cpp:[[@LINE-1]]:47: error: kernel parameter 'y' has type 'tile::Tensor<float, 0> &', with the extent 0;

TILE_KERNEL void negative(tile::Tensor<float, 16>& y, const tile::Tensor<float, -4>& x) {}
// CHECK: kernel-param-shape.cpp:[[@LINE-1]]:86: error: kernel parameter 'x' has type 'const tile::Tensor<float, -4> &', with the extent -4;

TILE_KERNEL void fine(tile::Tensor<float, 16, 4>& y, const tile::Tensor<float, tile::dyn>& x) {}
// CHECK-NOT: 'fine'
