// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// A compile-time loop written as a chain of 200 template instantiations is inlined, not taken
// for recursion: each instantiation is a different function.
#include <tile/tile.hpp>

template <int N>
tile::Tile<float, 64> addOnes(tile::Tile<float, 64> t) {
  if constexpr (N == 0)
    return t;
  else
    return addOnes<N - 1>(t + 1.0f);
}

TILE_KERNEL void chain(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(addOnes<200>(tile::load_tile_like(x, z)));
}
// CHECK-LABEL: func.func
// CHECK-COUNT-200: arith.addf
// CHECK-NOT: arith.addf
// CHECK: return
