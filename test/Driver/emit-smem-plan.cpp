// RUN: tilecc compile --emit=smem-plan %s | FileCheck %s
// `--emit=smem-plan` prints each kernel's warps and total dynamic shared memory, then every
// buffer: its byte range, the op that stages a tile there, the tile and the source line.
// A reduction whose axis no warps spread runs in registers and shuffles, and its result
// broadcast back along the axis stays where it is: `normalize` needs no shared memory.
// Along a row that several warps share, only the warps' partial sums meet in shared memory,
// each at its own bytes so that the second needs no barrier before its writes.
#include <tile/tile.hpp>

TILE_KERNEL void normalize(tile::Tensor<float, 8, 64>& z,
                           const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = tile::load_tile_like(x, z);
  auto total = tile::sum<1>(t);
  z.store(t / tile::broadcast<8, 64>(tile::reshape<8, 1>(total)));
}

TILE_KERNEL void center(tile::Tensor<float, 1, 4096>& z,
                        const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = tile::load_tile_like(x, z);
  auto mean = tile::sum<1>(t) / 4096.0f;
  auto c = t - tile::broadcast<1, 4096>(tile::reshape<1, 1>(mean));
  auto norm = tile::sum<1>(c * c);
  z.store(c / tile::broadcast<1, 4096>(tile::reshape<1, 1>(norm)));
}

// CHECK: kernel 'normalize': 1 warp(s), 0 bytes of dynamic shared memory
// CHECK-NEXT: kernel 'center': 4 warp(s), 32 bytes of dynamic shared memory
// CHECK-NEXT: [     0,     16)  tile.reduce   tensor<1x4096xf32> axis 1  at {{.*}}emit-smem-plan.cpp:20:15
// CHECK-NEXT: [    16,     32)  tile.reduce   tensor<1x4096xf32> axis 1  at {{.*}}emit-smem-plan.cpp:22:15
// CHECK-NOT: tile.
