// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// `switch` is not lowered: an error at the statement (with the way around it), never a crash.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, int n) {
  auto t = z.load();
  for (int i = 0; i < n; ++i) {
    switch (i % 3) {
    case 0:
      t = t + 1.0f;
      break;
    default:
      t = t * 2.0f;
    }
  }
  z.store(t);
}
// CHECK: unsupported-switch.cpp:8:5: error: 'switch' (write it as 'if'/'else if') is not supported in a tile kernel [tile-unsupported]
