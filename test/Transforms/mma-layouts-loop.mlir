// A K loop: the accumulator is carried in the mma layout, only the operands convert inside
// the loop, and the zero initial value is made directly in the mma layout.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-mma-layouts | FileCheck %s

// CHECK-LABEL: func.func @gemm
func.func @gemm(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  // CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %a = tile.load %x[%c0, %i] : !tile.view<?x?xf16> -> tensor<128x32xf16>
    %b = tile.load %y[%i, %c0] : !tile.view<?x?xf16> -> tensor<32x128xf16>
    // CHECK: %[[A:.*]] = tilegpu.convert_layout {{.*}} -> tensor<128x32xf16, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [8, 1]>, kWidth = 2>>
    // CHECK: %[[B:.*]] = tilegpu.convert_layout {{.*}} -> tensor<32x128xf16, #tilegpu.dot_operand<opIdx = 1, parent = #tilegpu.mma<warpsPerBlock = [8, 1]>, kWidth = 2>>
    // CHECK: %[[C:.*]] = tilegpu.mma %[[A]], %[[B]], %[[ACC]]
    // CHECK-NOT: convert_layout
    // CHECK: scf.yield %[[C]]
    %c = tile.mma %a, %b, %acc : tensor<128x32xf16>, tensor<32x128xf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  // CHECK: %[[OUT:.*]] = tilegpu.convert_layout %[[R]] : tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>> -> tensor<128x128xf32, #tilegpu.blocked
  // CHECK: return %[[OUT]]
  return %r : tensor<128x128xf32>
}
