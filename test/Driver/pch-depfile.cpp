// RUN: rm -rf %t && mkdir -p %t
// The depfile lists the headers behind the precompiled header (which the parse does not read)
// as the parse without it does, so that a change to any of them rebuilds the output.
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile %s -o %t/x.cu -MF %t/built.d
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile %s -o %t/x.cu -MF %t/reused.d
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile --no-pch %s -o %t/x.cu -MF %t/none.d
// RUN: diff %t/built.d %t/none.d
// RUN: diff %t/reused.d %t/none.d
// RUN: FileCheck %s <%t/reused.d
#include <cstdint>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<std::int32_t, 128>& z) { z.store(z.load() + 1); }

// CHECK: x.cu: \
// CHECK-DAG: {{[/\\]}}cstdint \
// CHECK-DAG: {{[/\\]}}tile{{[/\\]}}tile.hpp \
// CHECK-DAG: {{[/\\]}}tile{{[/\\]}}array.hpp \
// CHECK-DAG: pch-depfile.cpp
