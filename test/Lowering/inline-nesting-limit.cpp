// RUN: not tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// Device functions are inlined up to 256 calls deep, in the lowering as in the analyses.
#include <tile/tile.hpp>

template <int N>
float deeper(float x) {
  if constexpr (N == 0)
    return x;
  else
    return deeper<N - 1>(x) + 1.0f;
}

TILE_KERNEL void nested(tile::Tensor<float, 64>& z, float x) {
  z.store(tile::full<float, 64>(deeper<300>(x)));
}
// CHECK: error: calls nested more than 256 deep is not supported in a tile kernel [tile-unsupported]
