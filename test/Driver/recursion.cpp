// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
#include <tile/tile.hpp>

int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }

TILE_KERNEL void k(tile::Tensor<float, 128>& z, int n) { z.store(z.load() + float(depth(n))); }
// CHECK: recursion.cpp:4:44: error: recursive call to 'depth' is not allowed in a tile kernel [tile-kernel-recursion]
