// An mma that is not a whole number of instruction tiles (M = 8, or K = 8 for f16) keeps its
// blocked layouts; CodeGen stages it through shared memory.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-mma-layouts | FileCheck %s

// CHECK-LABEL: func.func @small_m
// CHECK: tile.mma
// CHECK-NOT: tilegpu.mma
func.func @small_m(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = tile.mma %a, %b, %c : tensor<8x16xf16>, tensor<16x16xf16>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @short_k
// CHECK: tile.mma
// CHECK-NOT: tilegpu.mma
func.func @short_k(%a: tensor<16x8xf16>, %b: tensor<8x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = tile.mma %a, %b, %c : tensor<16x8xf16>, tensor<8x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
