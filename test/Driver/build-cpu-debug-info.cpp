// RUN: tilecc build --cpu -g -v %s -o %t.exe 2>&1 | FileCheck %s --check-prefix=CMD
// RUN: %t.exe | FileCheck %s
// RUN: tilecc build --cpu -v %s -o %t.nodebug.exe 2>&1 | FileCheck %s --check-prefix=PLAIN
// tilecc build -g passes debug information to the compiler (for gdb on the CPU backend).
#include <cstdio>
#include <tile/tile.hpp>

TILE_KERNEL void inc(tile::Tensor<int32_t, 16>& z) { z.store(z.load() + 1); }

int main() {
  auto z = tile::zeros<int32_t>({16});
  tile::launch<inc>(z.partition_mut<16>()).sync();
  std::printf("%d\n", z.to_host()[15]);
}

// CMD: -O2 -g
// CHECK: 1
// PLAIN-NOT: {{ -g( |$)}}
