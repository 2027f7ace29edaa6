// REQUIRES: nvcc
// RUN: tilecc compile %S/Inputs/scale_kernel.tile.cpp -o %t.kernel.cu
// RUN: %nvcc -c %t.kernel.cu -I%S/Inputs -o %t.kernel.o
// RUN: %nvcc -c %s -I%S/Inputs -o %t.main.o
// RUN: %nvcc-link %t.main.o %t.kernel.o -L%tile_libdir -ltile_rt -o %t.exe
// RUN: %t.exe | FileCheck %s
// A kernel defined and explicitly instantiated in one file (compiled by tilecc) is launched from
// another that tilecc never saw: the registration is visible across translation units, and the
// launch runs (on the GPU when present, else on the CPU backend).
#include "scale_kernel.h"
#include <cstdio>

int main() {
  std::printf("registered: %d\n", tile::detail::GpuKernel<&scale<256>>::entry != nullptr);
  std::vector<float> host(1000);
  for (int i = 0; i < 1000; ++i)
    host[i] = float(i);
  auto x = tile::from_host(host);
  auto z = tile::zeros<float>({1000});
  auto out = tile::launch<scale<256>>(std::move(z).partition<256>(), x, 2.0f).sync().unpartition();
  std::vector<float> h = out.to_host();
  int bad = 0;
  for (int i = 0; i < 1000; ++i)
    bad += h[i] != 2.0f * float(i);
  std::printf("mismatches: %d\n", bad);
}
// CHECK: registered: 1
// CHECK: mismatches: 0
