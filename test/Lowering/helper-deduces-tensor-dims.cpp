// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A helper written `template <int B> f(const tile::Tensor<float, B>&)` deduces B from the
// kernel's parameter (the dimensions are int template arguments), and so does one that takes
// the exclusive piece, `tile::Tensor<float, B>&`.
#include <tile/tile.hpp>

template <int B>
tile::Tile<float, B> doubled(const tile::Tensor<float, B>& t) {
  return t.load() * 2.0f;
}

template <int B, int C>
void store_sum(tile::Tensor<float, B, C>& out, const tile::Tile<float, B, C>& a) {
  out.store(a + 1.0f);
}

TILE_KERNEL void twice(tile::Tensor<float, 128>& z, const tile::Tensor<float, 128>& x) {
  z.store(doubled(x));
}

TILE_KERNEL void plus_one(tile::Tensor<float, 16, 32>& z) { store_sum(z, z.load()); }
// CHECK-LABEL: func.func @twice(
// CHECK: tile.load {{.*}} -> tensor<128xf32>
// CHECK: arith.mulf {{.*}} : tensor<128xf32>
// CHECK: tile.store
// CHECK-LABEL: func.func @plus_one(
// CHECK: arith.addf {{.*}} : tensor<16x32xf32>
// CHECK: tile.store
