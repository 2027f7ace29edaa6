// Reductions, scans and shape ops print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

// CHECK-LABEL: func.func @shapes
func.func @shapes(%t: tensor<16x4xf32>, %i: index) -> tensor<1x8x1x16xf32> {
  // CHECK: tile.permute %{{.*}} [1, 0] : tensor<16x4xf32> -> tensor<4x16xf32>
  %p = tile.permute %t [1, 0] : tensor<16x4xf32> -> tensor<4x16xf32>
  // CHECK: tile.cat %{{.*}}, %{{.*}} axis 0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<8x16xf32>
  %c = tile.cat %p, %p axis 0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<8x16xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<8x16xf32> -> tensor<8x1x16xf32>
  %r = tile.reshape %c : tensor<8x16xf32> -> tensor<8x1x16xf32>
  // CHECK: tile.broadcast %{{.*}} : tensor<8x1x16xf32> -> tensor<2x8x4x16xf32>
  %b = tile.broadcast %r : tensor<8x1x16xf32> -> tensor<2x8x4x16xf32>
  // CHECK: tile.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<2x8x4x16xf32> -> tensor<1x8x1x16xf32>
  %e = tile.extract %b[%i, %i, %i, %i] : tensor<2x8x4x16xf32> -> tensor<1x8x1x16xf32>
  return %e : tensor<1x8x1x16xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%t: tensor<8x32xf32>, %k: tensor<8x32xi32>, %z: f32) -> (f32, tensor<8x32xf32>) {
  // CHECK: tile.reduce %{{.*}}, %{{.*}} axis 1 : tensor<8x32xf32>, tensor<8x32xi32> -> tensor<8xf32>, tensor<8xi32> {
  %m:2 = tile.reduce %t, %k axis 1 : tensor<8x32xf32>, tensor<8x32xi32> -> tensor<8xf32>, tensor<8xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    tile.yield %a, %ai : f32, i32
  }
  // CHECK: tile.reduce %{{.*}} init(%{{.*}} : f32) axis 0 : tensor<8xf32> -> f32 {
  %s = tile.reduce %m#0 init(%z : f32) axis 0 : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  // CHECK: tile.scan %{{.*}} axis 0 : tensor<8x32xf32> -> tensor<8x32xf32> {
  %c = tile.scan %t axis 0 : tensor<8x32xf32> -> tensor<8x32xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  return %s, %c : f32, tensor<8x32xf32>
}
