// A shared view is the whole array: offsets are kept, the bound is the array's extent, and
// there are no starts (zero).
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu | FileCheck %s

// CHECK-LABEL: func.func @shared
func.func @shared(%x: !tile.view<?x?xf32>, %i: index, %j: index) -> tensor<32x64xf32> {
  // CHECK-NOT: tile.block_id
  // CHECK: %[[D0:.*]] = tilegpu.array_dim %arg0, 0 : <?x?xf32>
  // CHECK: %[[D1:.*]] = tilegpu.array_dim %arg0, 1 : <?x?xf32>
  // CHECK: tilegpu.global_load %arg0[%arg1, %arg2] bounds[%[[D0]], %[[D1]]] {vector = 1 : i32}
  %t = tile.load %x[%i, %j] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  return %t : tensor<32x64xf32>
}
