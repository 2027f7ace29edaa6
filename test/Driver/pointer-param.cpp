// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// RUN: tilecc compile %s -o %t.cu 2>/dev/null || test $? -eq 1
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, const float* p) { z.store(z.load()); }
// CHECK: pointer-param.cpp:5:62: error: kernel parameter 'p' has type 'const float *'; {{.*}} [tile-kernel-param]
