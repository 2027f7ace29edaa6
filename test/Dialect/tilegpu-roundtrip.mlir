// The tilegpu dialect's layouts and ops print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

#L1 = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
#L2 = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1], order = [1, 0]>

// CHECK-LABEL: func.func @access_1d
func.func @access_1d(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %i: index) {
  // CHECK: tilegpu.array_dim %{{.*}}, 0 : <?xf32>
  %n = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
  // CHECK: tilegpu.global_load %{{.*}}[%{{.*}}] bounds[%{{.*}}] {vector = 4 : i32} : <?xf32> -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
  %t = tilegpu.global_load %x[%i] bounds [%n] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L1>
  // CHECK: tilegpu.global_store %{{.*}}, %{{.*}}[%{{.*}}] starts[%{{.*}}] bounds[%{{.*}}] {vector = 4 : i32} : tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>, <128xf32, exclusive>
  tilegpu.global_store %t, %z[%i] starts [%i] bounds [%n] {vector = 4 : i32} : tensor<128xf32, #L1>, !tile.view<128xf32, exclusive>
  return
}

// CHECK-LABEL: func.func @access_2d
func.func @access_2d(%z: !tile.view<?x?xf32, exclusive>, %i: index, %j: index) {
  // CHECK: tilegpu.piece_shape %{{.*}}, 1 : <?x?xf32, exclusive>
  %p = tilegpu.piece_shape %z, 1 : !tile.view<?x?xf32, exclusive>
  // CHECK: tilegpu.global_load %{{.*}}[%{{.*}}, %{{.*}}] starts[%{{.*}}, %{{.*}}] bounds[%{{.*}}, %{{.*}}] {vector = 4 : i32} : <?x?xf32, exclusive> -> tensor<32x64xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1], order = [1, 0]>>
  %t = tilegpu.global_load %z[%i, %j] starts [%i, %j] bounds [%p, %p] {vector = 4 : i32} : !tile.view<?x?xf32, exclusive> -> tensor<32x64xf32, #L2>
  return
}
