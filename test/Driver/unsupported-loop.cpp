// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// A loop may carry tiles and scalars, not partitions: reassigning a partition variable in a
// loop is an error at the loop, never a crash.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x,
                   const tile::Tensor<float, tile::dyn>& y, int n) {
  auto p = x.partition<128>();
  for (int i = 0; i < n; ++i)
    p = y.partition<128>();
  z.store(p.load(0));
}
// CHECK: unsupported-loop.cpp:9:3: error: a partition or view variable assigned in a loop is not supported in a tile kernel [tile-unsupported]
