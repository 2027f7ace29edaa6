// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A free operator of a user type is a device function like any other: inlined.
#include <tile/tile.hpp>

enum class Step : int { one = 1, two = 2 };
inline int64_t operator+(int64_t a, Step s) { return a + 3 * int64_t(s); }

TILE_KERNEL void shifted(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x) {
  auto p = x.partition<64>();
  z.store(p.load(tile::block_id(0) + Step::two));
}

// CHECK-LABEL: func.func @shifted(
// CHECK-NOT: call
// CHECK: arith.constant 3 : i64
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: tile.load
