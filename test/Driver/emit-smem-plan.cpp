// RUN: tilecc compile --emit=smem-plan %s | FileCheck %s
// `--emit=smem-plan` prints each kernel's warps and total dynamic shared memory, then every
// buffer: its byte range, the op that stages a tile there, the tile and the source line.
// Consecutive exchanges share bytes.
#include <tile/tile.hpp>

TILE_KERNEL void normalize(tile::Tensor<float, 8, 64>& z,
                           const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = tile::load_tile_like(x, z);
  auto total = tile::sum<1>(t);
  z.store(t / tile::broadcast<8, 64>(tile::reshape<8, 1>(total)));
}

// CHECK: kernel 'normalize': 2 warp(s), 32 bytes of dynamic shared memory
// CHECK-NEXT: [     0,     32)  tile.reduce   tensor<8x64xf32> axis 1  at {{.*}}emit-smem-plan.cpp:10:16
// CHECK-NEXT: [     0,     32)  tile.reshape  tensor<8xf32>  at {{.*}}emit-smem-plan.cpp:11:38
// CHECK-NEXT: [     0,     32)  tile.broadcast tensor<8x1xf32>  at {{.*}}emit-smem-plan.cpp:11:15
