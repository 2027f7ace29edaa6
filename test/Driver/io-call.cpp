// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
#include <cstdio>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) {
  std::printf("hello\n");
  z.store(z.load());
}
// CHECK: io-call.cpp:6:3: error: call to 'printf', whose body tilecc cannot see, is not allowed in a tile kernel {{.*}}[tile-kernel-external-call]
