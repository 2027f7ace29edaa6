// The access width is the layout's elements per thread along the fastest axis, at most 16 bytes.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --tile-vectorize-accesses | FileCheck %s

// CHECK-LABEL: func.func @f16
// CHECK: tilegpu.global_load {{.*}} {vector = 8 : i32} : <?xf16> -> tensor<1024xf16
func.func @f16(%x: !tile.view<?xf16>, %i: index) -> tensor<1024xf16> {
  %t = tile.load %x[%i] : !tile.view<?xf16> -> tensor<1024xf16>
  return %t : tensor<1024xf16>
}

// CHECK-LABEL: func.func @f64
// CHECK: tilegpu.global_load {{.*}} {vector = 2 : i32} : <?xf64> -> tensor<128xf64
func.func @f64(%x: !tile.view<?xf64>, %i: index) -> tensor<128xf64> {
  %t = tile.load %x[%i] : !tile.view<?xf64> -> tensor<128xf64>
  return %t : tensor<128xf64>
}

// CHECK-LABEL: func.func @narrow_rows
// CHECK: tilegpu.global_load {{.*}} {vector = 2 : i32} : <?x?xf32> -> tensor<64x2xf32
func.func @narrow_rows(%x: !tile.view<?x?xf32>, %i: index) -> tensor<64x2xf32> {
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x2xf32>
  return %t : tensor<64x2xf32>
}
