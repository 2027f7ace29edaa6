// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '#!/bin/sh\necho "nvcc $*" >> %t/log\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done\nexit 0\n' > %t/nvcc
// RUN: chmod +x %t/nvcc
// RUN: env NVCC=%t/nvcc tilecc build -lineinfo %s -o %t/lineinfo.exe
// RUN: env NVCC=%t/nvcc tilecc build -g %s -o %t/debug.exe
// RUN: env NVCC=%t/nvcc tilecc build %s -o %t/plain.exe
// RUN: FileCheck %s < %t/log
// tilecc build hands nvcc -lineinfo (line tables for ncu and compute-sanitizer) or, for -g,
// host and device debug information (-g -G); neither by default. A stand-in nvcc records
// its command lines.
#include <tile/tile.hpp>

TILE_KERNEL void inc(tile::Tensor<int32_t, 16>& z) { z.store(z.load() + 1); }

int main() {}
// CHECK: nvcc -O3 -lineinfo {{.*}}.cu -c -o
// CHECK-NEXT: nvcc {{.*}}-o {{.*}}lineinfo.exe
// CHECK-NEXT: nvcc -O3 -g -G {{.*}}.cu -c -o
// CHECK-NEXT: nvcc {{.*}}-o {{.*}}debug.exe
// CHECK-NEXT: nvcc -O3 -std=c++20 -I
// CHECK-NOT: -lineinfo
// CHECK-NOT: -G
