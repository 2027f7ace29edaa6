// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A condition Clang folds (`if constexpr`, or one on template parameters) selects its branch
// at compile time: no scf.if, and the other branch is not lowered.
#include <tile/tile.hpp>

template <int B, bool Square>
TILE_KERNEL void maybe(tile::Tensor<float, B>& z) {
  auto t = z.load();
  if constexpr (Square)
    t = t * t;
  else
    t = -t;
  if (B > 64)
    t = t + 1.0f;
  z.store(t);
}
template void maybe<128, true>(tile::Tensor<float, 128>&);

// CHECK-LABEL: func.func @maybe_128_true(
// CHECK-NOT: scf.if
// CHECK-NOT: arith.negf
// CHECK: %[[T:.*]] = tile.load %arg0
// CHECK: %[[SQ:.*]] = arith.mulf %[[T]], %[[T]]
// CHECK: %[[P:.*]] = arith.addf %[[SQ]], %{{.*}}
// CHECK: tile.store %[[P]], %arg0
