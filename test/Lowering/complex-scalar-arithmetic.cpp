// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// Arithmetic on complex<float> scalars lowers by the formulas the tiles use: a product takes
// four real products, a quotient divides by |w|^2, a real operand becomes (x, 0), and `!=` is
// the negation of `==` (a rewritten operator).
#include <tile/tile.hpp>

using c64 = tile::complex<float>;

TILE_KERNEL void scalars(tile::Tensor<c64, 128>& z, const tile::Tensor<c64, tile::dyn>& x,
                         float s) {
  c64 w(1.0f, 2.0f);
  c64 u = w * w - s;
  u = -u / w;
  const bool differ = u != w;
  z.store(tile::load_tile_like(x, z) * (differ ? u : w));
}
// CHECK-LABEL: func.func @scalars
// CHECK: %[[W:.*]] = tile.make_complex
// CHECK-COUNT-4: arith.mulf {{.*}} : f32
// CHECK: arith.subf {{.*}} : f32
// CHECK: arith.addf {{.*}} : f32
// CHECK: tile.make_complex %arg2, %{{.*}} : f32 -> complex<f32>
// CHECK: arith.negf
// CHECK: arith.negf
// CHECK: arith.divf
// CHECK: arith.divf
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf oeq
// CHECK: arith.andi
// CHECK: arith.xori
// CHECK: arith.select {{.*}} : complex<f32>
