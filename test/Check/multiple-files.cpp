// RUN: not tilecc check %s %S/Inputs/clean.cpp %S/Inputs/external-call.cpp 2>&1 | FileCheck %s
// RUN: tilecc check %S/Inputs/clean.cpp %S/Inputs/clean.cpp
// Several files: each is parsed and checked on its own, in order; any finding makes exit 1.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load() * 2.0f); throw 0; }
// CHECK: multiple-files.cpp:6:77: error: exceptions are not allowed in a tile kernel [tile-kernel-exception]
// CHECK-NOT: clean.cpp
// CHECK: external-call.cpp:7:3: error: call to 'puts', whose body tilecc cannot see, is not allowed in a tile kernel {{.*}}[tile-kernel-external-call]
