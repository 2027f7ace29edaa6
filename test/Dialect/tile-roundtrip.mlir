// The tile dialect's types and ops print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

// CHECK-LABEL: func.func @views
// CHECK-SAME: !tile.view<128xf32, exclusive>
// CHECK-SAME: !tile.view<?x?xf16>
// CHECK-SAME: !tile.view<4x?xi32, atomic>
func.func @views(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?x?xf16>,
                 %a: !tile.view<4x?xi32, atomic>) {
  return
}

// CHECK-LABEL: func.func @ops
func.func @ops(%z: !tile.view<32x64xf32, exclusive>, %x: !tile.view<?x?xf32>, %s: f32) {
  // CHECK: tile.block_id 1
  %b = tile.block_id 1
  // CHECK: tile.num_blocks 0
  %n = tile.num_blocks 0
  // CHECK: tile.dim %{{.*}}, 1 : <?x?xf32>
  %d = tile.dim %x, 1 : !tile.view<?x?xf32>
  // CHECK: tile.piece_origin %{{.*}}, 0 : <32x64xf32, exclusive>
  %o = tile.piece_origin %z, 0 : !tile.view<32x64xf32, exclusive>
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : <?x?xf32> -> tensor<32x64xf32>
  %t = tile.load %x[%o, %b] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  // CHECK: tile.splat %{{.*}} : f32 -> tensor<32x64xf32>
  %v = tile.splat %s : f32 -> tensor<32x64xf32>
  // CHECK: tile.iota : tensor<64xi32>
  %i = tile.iota : tensor<64xi32>
  %c0 = arith.constant 0 : index
  // CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : tensor<32x64xf32>, <32x64xf32, exclusive>
  tile.store %t, %z[%c0, %c0] : tensor<32x64xf32>, !tile.view<32x64xf32, exclusive>
  return
}
