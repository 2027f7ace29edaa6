// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, tile::Tensor<float, tile::dyn> x) {
  z.store(tile::load_tile_like(x, z));
}
// CHECK: tensor-by-value.cpp:4:80: error: kernel parameter 'x' has type {{.*}} [tile-kernel-param]
