// RUN: not tilecc check %s 2>&1 | FileCheck %s
// check lowers and plans each kernel as compile does: a tile too large for the registers of a
// thread passes the analyses but cannot be compiled, so check refuses it too.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 1024, 1024>& z, const tile::Tensor<float, 1024, 1024>& x) {
  z.store(x.load() * 2.0f);
}
// CHECK: check-refuses-what-compile-refuses.cpp:7:11: error: the tile value of type 'tensor<1024x1024xf32>' needs 1024 registers per thread with 32 warps, more than the 255 a thread has
