// Accesses inside loops are lowered in place; loop-carried tiles keep their layouts.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu | FileCheck %s

// CHECK-LABEL: func.func @rows
func.func @rows(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: %[[SUM:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = {{.*}}) -> (tensor<128xf32, #[[L:tilegpu.blocked<[^>]*>]]>)
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128xf32>) {
    // CHECK: %[[ROW:.*]] = arith.muli %[[K]], %{{.*}} : index
    %row = arith.muli %k, %n : index
    // CHECK: %[[T:.*]] = tilegpu.global_load %arg1[%[[ROW]]] bounds[%{{.*}}] {vector = 1 : i32} : <?xf32> -> tensor<128xf32, #[[L]]>
    %t = tile.load %x[%row] : !tile.view<?xf32> -> tensor<128xf32>
    // CHECK: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[T]] : tensor<128xf32, #[[L]]>
    %next = arith.addf %acc, %t : tensor<128xf32>
    // CHECK: scf.yield %[[NEXT]] : tensor<128xf32, #[[L]]>
    scf.yield %next : tensor<128xf32>
  }
  // CHECK: tilegpu.global_store %[[SUM]], %arg0
  tile.store %sum, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}
