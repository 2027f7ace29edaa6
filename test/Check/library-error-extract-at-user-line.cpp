// RUN: not tilecc check %s 2>&1 | FileCheck %s
// A bad tile::extract (a piece that does not divide the tile) is reported at the user's line
// that asked for it, with the library's line as a note and no cascade of follow-up errors.
#include <tile/tile.hpp>

TILE_KERNEL void piece(tile::Tensor<float, 64>& z) {
  auto t = z.load();
  auto p = tile::extract<128>(t, 0);
  z.store(t);
}
// CHECK: library-error-extract-at-user-line.cpp:8:18: error: static assertion failed {{.*}}tile::extract<Dims...>: each dimension of Dims must divide the tile's
// CHECK: tile/shape.hpp:{{[0-9]+}}:{{[0-9]+}}: note: the tile library reports it here
// CHECK-NOT: error:
