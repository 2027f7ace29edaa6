// tile-widen-f8 computes arithmetic on f8 in f32: operands are extended, f8 results truncated
// back; comparisons give i1 directly. Conversions, constants and selects are left alone, and
// ops inside combiner regions are rewritten too.
// RUN: tilecc-opt %s --tile-widen-f8 | FileCheck %s

// CHECK-LABEL: func.func @arith
func.func @arith(%a: tensor<16xf8E4M3FN>, %b: tensor<16xf8E4M3FN>, %s: f8E5M2) -> (tensor<16xf8E4M3FN>, tensor<16xi1>, f8E5M2, f32) {
  // CHECK: %[[A:.*]] = arith.extf %arg0 : tensor<16xf8E4M3FN> to tensor<16xf32>
  // CHECK: %[[B:.*]] = arith.extf %arg1 : tensor<16xf8E4M3FN> to tensor<16xf32>
  // CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : tensor<16xf32>
  // CHECK: %[[P:.*]] = arith.truncf %[[M]] : tensor<16xf32> to tensor<16xf8E4M3FN>
  %p = arith.mulf %a, %b : tensor<16xf8E4M3FN>
  // CHECK: %[[PW:.*]] = arith.extf %[[P]] : tensor<16xf8E4M3FN> to tensor<16xf32>
  // CHECK: arith.cmpf olt, %[[PW]], %{{.*}} : tensor<16xf32>
  %c = arith.cmpf olt, %p, %a : tensor<16xf8E4M3FN>
  // CHECK: %[[SW:.*]] = arith.extf %arg2 : f8E5M2 to f32
  // CHECK: %[[E:.*]] = math.exp %[[SW]] : f32
  // CHECK: arith.truncf %[[E]] : f32 to f8E5M2
  %e = math.exp %s : f8E5M2
  // A conversion stays as it is.
  // CHECK: arith.extf %arg2 : f8E5M2 to f32
  // CHECK-NOT: arith.truncf
  %w = arith.extf %s : f8E5M2 to f32
  return %p, %c, %e, %w : tensor<16xf8E4M3FN>, tensor<16xi1>, f8E5M2, f32
}

// CHECK-LABEL: func.func @combiner
func.func @combiner(%t: tensor<4x8xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // CHECK: tile.reduce
  // CHECK: arith.extf
  // CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f32
  // CHECK: arith.truncf
  // CHECK: tile.yield
  %r = tile.reduce %t axis 1 : tensor<4x8xf8E4M3FN> -> tensor<4xf8E4M3FN> {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN):
    %m = arith.maxnumf %x, %y : f8E4M3FN
    tile.yield %m : f8E4M3FN
  }
  return %r : tensor<4xf8E4M3FN>
}
