// RUN: not tilecc check %s 2>&1 | FileCheck %s
// RUN: tilecc check %s 2>/dev/null || test $? -eq 1
// Clang's own errors are findings too (exit 1); tilecc's checks do not run on a broken file.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) {
  float* scratch = new float[4];
  z.store(z.load() + undeclared);
}
// CHECK: clang-error-exit-1.cpp:8:22: error: use of undeclared identifier 'undeclared'
// CHECK-NOT: tile-kernel-allocation
