// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// tile::complex<float> tiles keep complex<f32> elements; a product is f32 arithmetic on the
// parts (ac - bd, ad + bc, each product its own mulf), tile::abs is computed in f64, and a
// float scalar becomes a complex with imaginary part zero.
#include <tile/tile.hpp>

using cf = tile::complex<float>;

TILE_KERNEL void cmul(tile::Tensor<cf, 16>& z, tile::Tensor<float, 16>& m,
                      const tile::Tensor<cf, tile::dyn>& x, float s) {
  auto a = tile::load_tile_like(x, z);
  z.store(a * a + s);
  m.store(tile::abs(a));
}

// CHECK-LABEL: func.func @cmul(
// CHECK-SAME: !tile.view<16xcomplex<f32>, exclusive>
// CHECK: %[[A:.*]] = tile.load {{.*}} -> tensor<16xcomplex<f32>>
// CHECK: %[[RE:.*]] = tile.real %[[A]] : tensor<16xcomplex<f32>> -> tensor<16xf32>
// CHECK: %[[IM:.*]] = tile.imag %[[A]] : tensor<16xcomplex<f32>> -> tensor<16xf32>
// CHECK: %[[RE2:.*]] = tile.real %[[A]]
// CHECK: %[[IM2:.*]] = tile.imag %[[A]]
// CHECK: %[[AC:.*]] = arith.mulf %[[RE]], %[[RE2]] : tensor<16xf32>
// CHECK: %[[BD:.*]] = arith.mulf %[[IM]], %[[IM2]] : tensor<16xf32>
// CHECK: %[[AD:.*]] = arith.mulf %[[RE]], %[[IM2]] : tensor<16xf32>
// CHECK: %[[BC:.*]] = arith.mulf %[[IM]], %[[RE2]] : tensor<16xf32>
// CHECK: %[[R:.*]] = arith.subf %[[AC]], %[[BD]]
// CHECK: %[[I:.*]] = arith.addf %[[AD]], %[[BC]]
// CHECK: tile.make_complex %[[R]], %[[I]] : tensor<16xf32> -> tensor<16xcomplex<f32>>
// CHECK: %[[S:.*]] = tile.make_complex %arg3, %{{.*}} : f32 -> complex<f32>
// CHECK: tile.splat %[[S]] : complex<f32> -> tensor<16xcomplex<f32>>
// CHECK: arith.extf %{{.*}} : tensor<16xf32> to tensor<16xf64>
// CHECK: math.sqrt %{{.*}} : tensor<16xf64>
// CHECK: arith.truncf %{{.*}} : tensor<16xf64> to tensor<16xf32>
