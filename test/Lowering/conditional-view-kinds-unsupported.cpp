// RUN: not tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// A choice between this program's exclusive piece and a shared view of the same C++ class
// has no single view kind: a located error, not a select between unlike views.
#include <tile/tile.hpp>

TILE_KERNEL void mixed(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x, int w) {
  const auto& v = w ? z : x;
  z.store(v.load() + 1.0f);
}
// CHECK: conditional-view-kinds-unsupported.cpp:7:19: error: a choice between views of different kinds or shapes is not supported in a tile kernel [tile-unsupported]
