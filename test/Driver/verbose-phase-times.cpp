// RUN: tilecc compile -v %s -o %t.cu 2>&1 | FileCheck %s
// RUN: tilecc check -v %s 2>&1 | FileCheck %s --check-prefix=CHECKCMD
// -v says how long each phase of the compile took.
#include <tile/tile.hpp>

TILE_KERNEL void inc(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }

// CHECK: tilecc: time: parse {{[0-9]+}} ms
// CHECK-NEXT: tilecc: time: check {{[0-9]+}} ms
// CHECK-NEXT: tilecc: time: lower {{[0-9]+}} ms
// CHECK-NEXT: tilecc: time: emit {{[0-9]+}} ms
// CHECKCMD: tilecc: time: parse {{[0-9]+}} ms
// CHECKCMD-NEXT: tilecc: time: check {{[0-9]+}} ms
// CHECKCMD-NEXT: tilecc: time: lower {{[0-9]+}} ms
