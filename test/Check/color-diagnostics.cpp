// RUN: not tilecc check -fcolor-diagnostics %s 2>&1 | FileCheck %s --check-prefix=COLOR
// RUN: not tilecc check -fno-color-diagnostics %s 2>&1 | FileCheck %s --check-prefix=PLAIN
// -fcolor-diagnostics colors the report even when it is not a terminal; -fno-color-diagnostics
// never does.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) {
  float* scratch = new float[4];
  z.store(z.load() + scratch[0]);
}

// COLOR: [0;1;31merror: {{.*}}dynamic allocation is not allowed in a tile kernel
// PLAIN: error: dynamic allocation is not allowed in a tile kernel
// PLAIN-NOT: [0;1;31m
