// `aligned` marks an access whose offset along the fastest axis is provably a multiple of its
// vector width: a piece's origin, a constant, a product with a multiple of the width, a loop
// over whole tiles. An offset from an argument, or a multiple of too small a number, is not.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses | FileCheck %s

// CHECK-LABEL: func.func @piece_origin
// CHECK: tilegpu.global_load {{.*}} {aligned, vector = 4 : i32}
// CHECK: tilegpu.global_store {{.*}} {aligned, vector = 4 : i32}
func.func @piece_origin(%y: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %o = tile.piece_origin %y, 0 : !tile.view<128xf32, exclusive>
  %t = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32>
  tile.store %t, %y[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// CHECK-LABEL: func.func @argument_offset
// CHECK: tilegpu.global_load {{.*}} {vector = 4 : i32}
func.func @argument_offset(%x: !tile.view<?xf32>, %i: index) -> tensor<128xf32> {
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  return %t : tensor<128xf32>
}

// CHECK-LABEL: func.func @scaled_offsets
// CHECK: tilegpu.global_load {{.*}} {aligned, vector = 4 : i32}
// CHECK: tilegpu.global_load {{.*}} {vector = 4 : i32}
// CHECK: tilegpu.global_load {{.*}} {aligned, vector = 4 : i32}
func.func @scaled_offsets(%x: !tile.view<?xf32>, %i: index) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %by4 = arith.muli %i, %c4 : index
  %by2 = arith.muli %i, %c2 : index
  %a = tile.load %x[%by4] : !tile.view<?xf32> -> tensor<128xf32>
  %b = tile.load %x[%by2] : !tile.view<?xf32> -> tensor<128xf32>
  %shifted = arith.addi %by4, %c12 : index
  %c = tile.load %x[%shifted] : !tile.view<?xf32> -> tensor<128xf32>
  return %a, %b, %c : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
}

// The K loop of a GEMV: the induction variable starts at 0 and steps by a whole tile.
// CHECK-LABEL: func.func @loop_over_tiles
// CHECK: scf.for
// CHECK: tilegpu.global_load {{.*}} {aligned, vector = 4 : i32}
func.func @loop_over_tiles(%x: !tile.view<?xf32>, %n: index) -> tensor<128xf32> {
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
