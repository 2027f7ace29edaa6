// RUN: not tilecc check %s 2>&1 | FileCheck %s
// RUN: tilecc check %s 2>/dev/null || test $? -eq 1
// A finding is printed clang-style (with the source line) and makes the exit status 1.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) {
  float* scratch = new float[4];
  z.store(z.load() + scratch[0]);
}
// CHECK: findings-exit-1.cpp:7:20: error: dynamic allocation is not allowed in a tile kernel [tile-kernel-allocation]
// CHECK-NEXT: 7 | float* scratch = new float[4];
// CHECK-NEXT: ^
