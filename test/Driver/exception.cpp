// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, int n) {
  if (n < 0)
    throw n;
  z.store(z.load());
}
// CHECK: exception.cpp:6:5: error: exceptions are not allowed in a tile kernel [tile-kernel-exception]
