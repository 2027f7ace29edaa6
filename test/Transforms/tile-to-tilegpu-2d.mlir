// A 2-D piece: one origin per grid axis (block_id 0 for rows, block_id 1 for columns).
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @copy
func.func @copy(%z: !tile.view<32x64xf32, exclusive>, %x: !tile.view<?x?xf32>) {
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
  // CHECK-DAG: %[[B0:.*]] = tile.block_id 0
  // CHECK-DAG: %[[B1:.*]] = tile.block_id 1
  // CHECK-DAG: %[[R:.*]] = arith.muli %[[B0]], %[[C32]] : index
  // CHECK-DAG: %[[C:.*]] = arith.muli %[[B1]], %[[C64]] : index
  %o0 = tile.piece_origin %z, 0 : !tile.view<32x64xf32, exclusive>
  %o1 = tile.piece_origin %z, 1 : !tile.view<32x64xf32, exclusive>
  // CHECK: %[[T:.*]] = tilegpu.global_load %arg1[%[[R]], %[[C]]] bounds[%{{.*}}, %{{.*}}] {vector = 1 : i32} : <?x?xf32> -> tensor<32x64xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1], order = [1, 0]>>
  %t = tile.load %x[%o0, %o1] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %c0 = arith.constant 0 : index
  // CHECK-DAG: %[[E0:.*]] = arith.addi %[[R]], %[[C32]] : index
  // CHECK-DAG: %[[M0:.*]] = arith.minsi %[[E0]], %{{.*}} : index
  // CHECK-DAG: %[[E1:.*]] = arith.addi %[[C]], %[[C64]] : index
  // CHECK-DAG: %[[M1:.*]] = arith.minsi %[[E1]], %{{.*}} : index
  // CHECK: tilegpu.global_store %[[T]], %arg0[%[[R]], %[[C]]] starts[%[[R]], %[[C]]] bounds[%[[M0]], %[[M1]]] {vector = 1 : i32}
  tile.store %t, %z[%c0, %c0] : tensor<32x64xf32>, !tile.view<32x64xf32, exclusive>
  return
}
