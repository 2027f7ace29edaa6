// RUN: not tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// A class that holds a reference to a view is not a value in a kernel: a located error that
// names the field.
#include <tile/tile.hpp>

struct Input {
  const tile::Tensor<float, tile::dyn>& x;
  float scale;
};

TILE_KERNEL void held(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  Input in{x, 2.0f};
  z.store(tile::load_tile_like(in.x, z) * in.scale);
}
// CHECK: aggregate-with-view-unsupported.cpp:12:11: error: an object of class 'struct Input', whose field 'x' is not a scalar, a tile or such a class is not supported in a tile kernel [tile-unsupported]
