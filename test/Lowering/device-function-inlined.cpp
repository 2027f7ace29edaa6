// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// Device functions and lambdas a kernel calls are inlined; no call remains.
#include <tile/tile.hpp>

template <class T, int N>
tile::Tile<T, N> relu(const tile::Tile<T, N>& t) { return tile::max(t, T(0)); }

TILE_KERNEL void act(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x) {
  auto square = [&](auto t) { return t * t; };
  z.store(square(relu(tile::load_tile_like(x, z))));
}

// CHECK-LABEL: func.func @act(
// CHECK-NOT: call
// CHECK: arith.maxnumf
// CHECK: arith.mulf
// CHECK: tile.store
