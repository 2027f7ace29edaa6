// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) {
  float* scratch = new float[4];
  z.store(z.load() + scratch[0]);
}
// CHECK: allocation.cpp:5:20: error: dynamic allocation is not allowed in a tile kernel [tile-kernel-allocation]
