// tile.atomic and tilegpu.global_atomic print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

// CHECK-LABEL: func.func @updates
func.func @updates(%h: !tile.view<?xi32, atomic>, %t: tensor<64xi32>, %i: index, %s: i32) {
  // CHECK: tile.atomic add %{{.*}}, %{{.*}}[%{{.*}}] : tensor<64xi32>, <?xi32, atomic>
  %a = tile.atomic add %t, %h[%i] : tensor<64xi32>, !tile.view<?xi32, atomic>
  // CHECK: tile.atomic umax %{{.*}}, %{{.*}}[%{{.*}}] : i32, <?xi32, atomic>
  %b = tile.atomic umax %s, %h[%i] : i32, !tile.view<?xi32, atomic>
  // CHECK: tile.atomic cas %{{.*}}, %{{.*}}[%{{.*}}] expected %{{.*}} : tensor<64xi32> : tensor<64xi32>, <?xi32, atomic>
  %c = tile.atomic cas %a, %h[%i] expected %t : tensor<64xi32> : tensor<64xi32>, !tile.view<?xi32, atomic>
  return
}

// CHECK-LABEL: func.func @global
#L = #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @global(%h: !tile.view<?xf32, atomic>, %t: tensor<64xf32, #L>, %i: index, %n: index) {
  // CHECK: tilegpu.global_atomic max %{{.*}}, %{{.*}}[%{{.*}}] bounds[%{{.*}}] : tensor<64xf32, #{{.*}}>, <?xf32, atomic>
  %a = tilegpu.global_atomic max %t, %h[%i] bounds [%n] : tensor<64xf32, #L>, !tile.view<?xf32, atomic>
  return
}
