// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// Constructs the compiler does not lower yet are errors at their location, never a crash.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, int n) {
  auto t = z.load();
  for (int i = 0; i < n; ++i)
    t = t + 1.0f;
  z.store(t);
}
// CHECK: unsupported-loop.cpp:7:3: error: a loop {{.*}} is not supported in a tile kernel [tile-unsupported]
