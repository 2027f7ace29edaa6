// RUN: tilecc-opt --canonicalize %s | FileCheck %s
// A broadcast or reshape of an iota that only adds unit or repeated axes is an iota of the
// result's shape, counting along the axis the source counted along.

// CHECK-LABEL: func.func @columns
// CHECK-NEXT: %[[I:.+]] = tile.iota {axis = 1 : i32} : tensor<4x16xi32>
// CHECK-NEXT: return %[[I]]
func.func @columns() -> tensor<4x16xi32> {
  %i = tile.iota : tensor<16xi32>
  %b = tile.broadcast %i : tensor<16xi32> -> tensor<4x16xi32>
  return %b : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @rows
// CHECK-NEXT: %[[I:.+]] = tile.iota {axis = 0 : i32} : tensor<4x16xf32>
// CHECK-NEXT: return %[[I]]
func.func @rows() -> tensor<4x16xf32> {
  %i = tile.iota : tensor<4xf32>
  %r = tile.reshape %i : tensor<4xf32> -> tensor<4x1xf32>
  %b = tile.broadcast %r : tensor<4x1xf32> -> tensor<4x16xf32>
  return %b : tensor<4x16xf32>
}

// A reshape that splits the counting axis is not an iota of one axis.
// CHECK-LABEL: func.func @split
// CHECK: tile.reshape
func.func @split() -> tensor<4x4xi32> {
  %i = tile.iota : tensor<16xi32>
  %r = tile.reshape %i : tensor<16xi32> -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}
