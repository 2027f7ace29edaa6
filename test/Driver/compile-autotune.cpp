// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ env TILE_AUTOTUNE_LOG=1 %t.exe 2>&1 | FileCheck --check-prefix=OUT %s %}
// tile::autotune names its candidates: tilecc compiles and registers each of them, and the
// program runs the one the first call chose (on the GPU when present, else the CPU backend).
#include <tile/tile.hpp>
#include <cstdio>
#include <vector>

template <int B>
TILE_KERNEL void twice(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 2.0f);
}

// CHECK-DAG: GpuKernelRegistration< &::twice<128> >
// CHECK-DAG: GpuKernelRegistration< &::twice<512> >
int main() {
  std::vector<float> host(1000);
  for (int i = 0; i < 1000; ++i)
    host[i] = float(i);
  auto x = tile::from_host(host);
  auto z = tile::zeros<float>({1000});
  tile::autotune<twice<128>, twice<512>>(z, x).sync();
  const std::vector<float> out = z.to_host();
  int bad = 0;
  for (int i = 0; i < 1000; ++i)
    bad += out[i] != 2.0f * float(i);
  // OUT: tile::autotune: twice<128>: {{[0-9.]+}} ms
  // OUT: tile::autotune: twice<512>: {{[0-9.]+}} ms
  // OUT: tile::autotune: chose twice<{{128|512}}> for
  // OUT: wrong elements: 0
  std::printf("wrong elements: %d\n", bad);
}
