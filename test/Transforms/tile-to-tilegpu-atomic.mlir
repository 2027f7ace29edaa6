// An atomic view is the whole array: tile.atomic keeps its offsets and is bounded by the
// array's extent, with no starts, like a shared view.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu | FileCheck %s

// CHECK-LABEL: func.func @atomic
func.func @atomic(%h: !tile.view<?x?xi32, atomic>, %t: tensor<4x64xi32>, %i: index, %j: index) -> tensor<4x64xi32> {
  // CHECK: %[[D0:.*]] = tilegpu.array_dim %arg0, 0 : <?x?xi32, atomic>
  // CHECK: %[[D1:.*]] = tilegpu.array_dim %arg0, 1 : <?x?xi32, atomic>
  // CHECK: tilegpu.global_atomic add %arg1, %arg0[%arg2, %arg3] bounds[%[[D0]], %[[D1]]] : tensor<4x64xi32, #{{.*}}>, <?x?xi32, atomic>
  // CHECK-NOT: tile.atomic
  %o = tile.atomic add %t, %h[%i, %j] : tensor<4x64xi32>, !tile.view<?x?xi32, atomic>
  return %o : tensor<4x64xi32>
}
