// Loop-carried tiles, region results and dense constants are re-typed consistently.
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// CHECK-LABEL: func.func @loop
func.func @loop(%x: !tile.view<?xf32>, %n: index, %p: i1) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32, #[[L:tilegpu.blocked<[^>]*>]]>
  %init = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128xf32, #[[L]]>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128xf32>) {
    // CHECK: tile.load {{.*}} -> tensor<128xf32, #[[L]]>
    %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
    // CHECK: arith.addf %[[ACC]], {{.*}} : tensor<128xf32, #[[L]]>
    %s = arith.addf %acc, %t : tensor<128xf32>
    // CHECK: scf.yield {{.*}} : tensor<128xf32, #[[L]]>
    scf.yield %s : tensor<128xf32>
  }
  // CHECK: scf.if {{.*}} -> (tensor<128xf32, #[[L]]>)
  %q = scf.if %p -> (tensor<128xf32>) {
    scf.yield %r : tensor<128xf32>
  } else {
    // CHECK: arith.constant dense<1.000000e+00> : tensor<128xf32, #[[L]]>
    %one = arith.constant dense<1.0> : tensor<128xf32>
    scf.yield %one : tensor<128xf32>
  }
  return %q : tensor<128xf32>
}
