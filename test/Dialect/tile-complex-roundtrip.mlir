// tile.make_complex, tile.real and tile.imag print and parse back, on scalars and tiles.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

// CHECK-LABEL: func.func @parts
func.func @parts(%re: tensor<8xf32>, %im: tensor<8xf32>, %s: f32) -> (tensor<8xf32>, f32) {
  // CHECK: %[[Z:.*]] = tile.make_complex %{{.*}}, %{{.*}} : tensor<8xf32> -> tensor<8xcomplex<f32>>
  %z = tile.make_complex %re, %im : tensor<8xf32> -> tensor<8xcomplex<f32>>
  // CHECK: tile.real %[[Z]] : tensor<8xcomplex<f32>> -> tensor<8xf32>
  %r = tile.real %z : tensor<8xcomplex<f32>> -> tensor<8xf32>
  // CHECK: %[[C:.*]] = tile.make_complex %{{.*}}, %{{.*}} : f32 -> complex<f32>
  %c = tile.make_complex %s, %s : f32 -> complex<f32>
  // CHECK: tile.imag %[[C]] : complex<f32> -> f32
  %i = tile.imag %c : complex<f32> -> f32
  return %r, %i : tensor<8xf32>, f32
}
