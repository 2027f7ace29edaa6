// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// `tilecc compile` prints an error raised inside the tile library's headers (here the
// static_assert that every tile dimension is a power of two) at the user's line that caused it,
// as `tilecc check` does, with a note on where the library reports it, and no follow-up errors
// for the same line.
#include <tile/tile.hpp>

TILE_KERNEL void odd(tile::Tensor<float, 128>& z) {
  auto t = tile::zeros<float, 100>();
  z.store(z.load() + t);
}

// CHECK: compile-library-error-at-user-line.cpp:9:18: error: static assertion failed {{.*}}tile::Tile: every dimension must be a power of two
// CHECK-NEXT: 9 | auto t = tile::zeros<float, 100>();
// CHECK: tile/tile_value.hpp:{{[0-9]+}}:{{[0-9]+}}: note: the tile library reports it here
// CHECK-NOT: compile-library-error-at-user-line.cpp:9:{{[0-9]+}}: error
