// RUN: not tilecc check %s 2>&1 | FileCheck %s
// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// A deleted kernel is refused at its name (it crashed check and compile).
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 16>& y) = delete;
// CHECK: kernel-deleted.cpp:[[@LINE-1]]:18: error: a deleted kernel (a launch needs its body) is not supported in a tile kernel [tile-unsupported]
