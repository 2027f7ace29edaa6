// tile-prefetch-loop-loads issues a loop's loads of shared views for the next step at the top
// of each step and carries them in: the first step's before the loop, each guarded to read
// nothing for a step the loop does not run.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tile-prefetch-loop-loads | FileCheck %s

// A K loop: the tile of step 0 is loaded before the loop, step k + 1's at the top of step k.
// CHECK-LABEL: func.func @k_loop
// CHECK: %[[FIRST_OK:.*]] = arith.cmpi slt, %{{.*}}, %[[N:.*]] : index
// CHECK: %[[FIRST_BOUND:.*]] = arith.select %[[FIRST_OK]], %{{.*}}, %{{.*}} : index
// CHECK: %[[FIRST:.*]] = tilegpu.global_load %{{.*}} bounds[%[[FIRST_BOUND]]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[TILE:.*]] = %[[FIRST]])
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK: %[[OK:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// CHECK: %[[BOUND:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : index
// CHECK: %[[LOADED:.*]] = tilegpu.global_load %{{.*}} bounds[%[[BOUND]]]
// CHECK: arith.addf %[[ACC]], %[[TILE]]
// CHECK: scf.yield %{{.*}}, %[[LOADED]]
func.func @k_loop(%x: !tile.view<?xf32>, %n: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %k = %c0 to %n step %c128 iter_args(%acc = %zero) -> (tensor<128xf32>) {
    %t = tile.load %x[%k] : !tile.view<?xf32> -> tensor<128xf32>
    %s = arith.addf %acc, %t : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}

// A load whose offset depends on what the loop carries cannot be issued a step early.
// CHECK-LABEL: func.func @carried_offset
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^,)]*}}, %{{[^,]*}} = %{{[^,)]*}}) -> (tensor<128xf32, {{.*}}>, index)
// CHECK: tilegpu.global_load
// CHECK: scf.yield
func.func @carried_offset(%x: !tile.view<?xf32>, %n: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %o = %c0) -> (tensor<128xf32>, index) {
    %t = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32>
    %s = arith.addf %acc, %t : tensor<128xf32>
    %o2 = arith.addi %o, %c128 : index
    scf.yield %s, %o2 : tensor<128xf32>, index
  }
  return %r#0 : tensor<128xf32>
}

// A view the kernel writes (exclusive) may change between steps: its loads stay in place.
// CHECK-LABEL: func.func @written_view
// CHECK-NOT: tilegpu.global_load
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^,)]*}}) -> (tensor<128xf32, {{.*}}>)
// CHECK-NOT: arith.select
// CHECK: tilegpu.global_load
// CHECK-NEXT: arith.addf
func.func @written_view(%y: !tile.view<?xf32, exclusive>, %n: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32>) {
    %o = arith.muli %k, %c128 : index
    %t = tile.load %y[%o] : !tile.view<?xf32, exclusive> -> tensor<128xf32>
    %s = arith.addf %acc, %t : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}
