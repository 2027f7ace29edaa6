// RUN: tilecc check -pthread -pedantic %s
// RUN: tilecc compile -pthread %s --emit=tile-ir | FileCheck %s
// `-pthread` and `-pedantic` are compiler flags, not `-p thread` (a build directory).
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 16>& z) { z.store(z.load()); }
// CHECK: func.func @k
