// RUN: not tilecc check %s 2>&1 | FileCheck %s
// tile::mma with inner dimensions that differ (K of a against K of b) is reported at the user's
// call, with the library's line as a note and no cascade of follow-up errors.
#include <tile/tile.hpp>

TILE_KERNEL void product(tile::Tensor<float, 16, 16>& c, const tile::Tensor<tile::bf16, 16, 32>& a,
                         const tile::Tensor<tile::bf16, 16, 16>& b) {
  auto acc = tile::zeros<float, 16, 16>();
  acc = tile::mma(a.load(), b.load(), acc);
  c.store(acc);
}
// CHECK: library-error-mma-inner-at-user-line.cpp:9:15: error: static assertion failed {{.*}}the inner dimensions differ
// CHECK: tile/matmul.hpp:{{[0-9]+}}:{{[0-9]+}}: note: the tile library reports it here
// CHECK-NOT: error:
