// REQUIRES: nvcc
// RUN: env NVCC=%nvcc-path tilecc build --arch=sm_80 %s -o %t.exe
// RUN: %t.exe | FileCheck %s
// tilecc build without --cpu compiles the generated CUDA with nvcc and links the static
// tile_rt after it; without a GPU the program runs on the CPU backend.
#include <cstdio>
#include <tile/tile.hpp>

TILE_KERNEL void twice(tile::Tensor<int32_t, 16>& z, const tile::Tensor<int32_t, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 2);
}

int main() {
  auto x = tile::arange<int32_t>(40);
  auto z = tile::launch<twice>(tile::zeros<int32_t>({40}).partition<16>(), x).sync().unpartition();
  std::vector<int32_t> h = z.to_host();
  std::printf("%d %d %d\n", h[0], h[17], h[39]);
}
// CHECK: 0 34 78
