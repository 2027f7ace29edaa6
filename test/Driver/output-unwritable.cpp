// An output the system cannot write (a full device) is a tool failure with the reason (exit
// 2), not an abort.
// REQUIRES: dev-full
// RUN: not tilecc compile %s -o /dev/full 2>&1 | FileCheck %s
// RUN: tilecc compile %s -o /dev/full 2>/dev/null || test $? -eq 2
// CHECK: tilecc: error: cannot write '/dev/full': No space left on device
// CHECK-NOT: LLVM ERROR
#include <tile/tile.hpp>

TILE_KERNEL void copy(tile::Tensor<float, 16>& y, const tile::Tensor<float, tile::dyn>& x) {
  y.store(x.partition<16>().load(tile::block_id(0)));
}
