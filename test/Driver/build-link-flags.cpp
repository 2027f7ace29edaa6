// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'int answer() { return 42; }\n' > %t/answer.cpp
// RUN: c++ -c %t/answer.cpp -o %t/answer.o
// RUN: ar rcs %t/libanswer.a %t/answer.o
// RUN: tilecc build --cpu %s -o %t/spaced.exe -L %t -l answer
// RUN: %t/spaced.exe | FileCheck %s
// RUN: tilecc build --cpu %s -o %t/joined.exe -L%t -lanswer
// RUN: %t/joined.exe | FileCheck %s
// RUN: not tilecc build --cpu %s -o %t/missing.exe -l 2>&1 | FileCheck %s --check-prefix=MISSING
// tilecc build passes -l LIB and -L DIR to the linker in both spellings, the value joined to
// the flag or the next word, like the compilers.
#include <cstdio>
#include <tile/tile.hpp>

int answer();

TILE_KERNEL void fill(tile::Tensor<int32_t, 16>& z, int32_t v) { z.store(tile::full<int32_t, 16>(v)); }

int main() {
  auto z = tile::zeros<int32_t>({16});
  tile::launch<fill>(z.partition_mut<16>(), answer()).sync();
  std::printf("%d\n", z.to_host()[15]);
}
// CHECK: 42
// MISSING: error: option '-l' needs a value
