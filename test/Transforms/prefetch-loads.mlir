// The loads of an mma K loop are issued one step ahead: the first before the loop, the next
// one at the top of each iteration (induction variable + step), carried to the iteration that
// uses it. Loops without an mma, loads of exclusive views and loads at coordinates computed
// from carried values are left alone.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --tile-mma-layouts --tile-prefetch-loads --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @k_loop
// CHECK: %[[A0:.*]] = tilegpu.global_load %arg0[%c0, %c0]
// CHECK: %[[B0:.*]] = tilegpu.global_load %arg1[%c0, %c0]
// CHECK: scf.for %[[K:.*]] = %c0 to %arg2 step %c32 iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B0]])
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %c32
// CHECK: %[[AN:.*]] = tilegpu.global_load %arg0[%c0, %[[NEXT]]]
// CHECK: %[[BN:.*]] = tilegpu.global_load %arg1[%[[NEXT]], %c0]
// CHECK: tilegpu.convert_layout %[[A]]
// CHECK: tilegpu.convert_layout %[[B]]
// CHECK: %[[C:.*]] = tilegpu.mma
// CHECK-NOT: tilegpu.global_load
// CHECK: scf.yield %[[C]], %[[AN]], %[[BN]]
func.func @k_loop(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<64x64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %n step %c32 iter_args(%acc = %init) -> (tensor<64x64xf32>) {
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf16> -> tensor<64x32xf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf16> -> tensor<32x64xf16>
    %c = tile.mma %a, %b, %acc : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %c : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @no_mma
// CHECK-NOT: tilegpu.global_load
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK: tilegpu.global_load %arg0[%[[I]]]
func.func @no_mma(%x: !tile.view<?xf32>, %n: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128xf32>) {
    %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
    %s = arith.addf %acc, %t : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}

// CHECK-LABEL: func.func @carried_coordinate
// CHECK-NOT: tilegpu.global_load
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[J:[a-z0-9]+]] = %c0) -> (tensor<16x16xf32, {{.*}}>, index)
// CHECK: tilegpu.global_load %arg0[%c0, %[[J]]]
func.func @carried_coordinate(%x: !tile.view<?x?xf16>, %n: index) -> tensor<16x16xf32>
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %init = arith.constant dense<0.0> : tensor<16x16xf32>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init, %j = %c0) -> (tensor<16x16xf32>, index) {
    %a = tile.load %x[%c0, %j] : !tile.view<?x?xf16> -> tensor<16x16xf16>
    %c = tile.mma %a, %a, %acc : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
    %jn = arith.addi %j, %c16 : index
    scf.yield %c, %jn : tensor<16x16xf32>, index
  }
  return %r#0 : tensor<16x16xf32>
}
