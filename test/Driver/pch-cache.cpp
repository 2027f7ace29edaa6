// RUN: rm -rf %t && mkdir -p %t
// The first compile builds a precompiled header for the file's leading #include lines, the
// second reuses it; either way the output is byte for byte that of a parse without it.
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - 2>%t/first.err >%t/first.cu
// RUN: FileCheck %s --check-prefix=BUILT <%t/first.err
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - 2>%t/second.err >%t/second.cu
// RUN: FileCheck %s --check-prefix=REUSED <%t/second.err
// RUN: ls %t/cache | FileCheck %s --check-prefix=FILES
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --no-pch %s -o - 2>%t/none.err >%t/none.cu
// RUN: env TILECC_CACHE_DIR=%t/cache TILECC_NO_PCH=1 tilecc compile -v %s -o - 2>%t/env.err >%t/env.cu
// RUN: not grep -v "tilecc: time:" %t/none.err
// RUN: not grep -v "tilecc: time:" %t/env.err
// RUN: diff %t/first.cu %t/none.cu
// RUN: diff %t/second.cu %t/none.cu
// RUN: diff %t/env.cu %t/none.cu
// `check` reuses it for every file with the same leading lines and flags.
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc check -v %s %s 2>&1 | FileCheck %s --check-prefix=CHECK2
#include <cstdio>
#include <vector>  // system headers may come first
/* and comments */
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void twice(tile::Tensor<float, B>& z) { z.store(z.load() * 2.0f); }

int main() {
  auto z = tile::ones<float>({1000});
  auto op = tile::launch<twice<128>>(std::move(z).partition<128>());
  std::printf("%g\n", std::move(op).sync().unpartition().to_host()[0]);
}

// BUILT: tilecc: {{.*}}pch-cache.cpp: precompiled header: built {{.*}}cache{{[/\\]}}[[KEY:[0-9a-f]+]]-{{[0-9a-f]+}}.pch in {{[0-9.]+}} s
// REUSED: tilecc: {{.*}}pch-cache.cpp: precompiled header: reused {{.*}}.pch
// FILES: {{^[0-9a-f]+-[0-9a-f]+\.pch$}}
// FILES-NEXT: {{^[0-9a-f]+\.manifest$}}
// FILES-NOT: {{.}}
// CHECK2-COUNT-2: precompiled header: reused
