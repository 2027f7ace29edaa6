// The fragment layouts and the ops on them print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

#M = #tilegpu.mma<warpsPerBlock = [4, 2]>
#A = #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [4, 2]>, kWidth = 2>
#B = #tilegpu.dot_operand<opIdx = 1, parent = #tilegpu.mma<warpsPerBlock = [4, 2]>, kWidth = 2>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [8, 1], order = [1, 0]>

// CHECK-LABEL: func.func @fragments
func.func @fragments(%a: tensor<128x32xf16, #L>, %b: tensor<32x128xf16, #B>,
                     %c: tensor<128x128xf32, #M>) -> tensor<128x128xf32, #M> {
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<128x32xf16, #tilegpu.blocked<{{.*}}>> -> tensor<128x32xf16, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [4, 2]>, kWidth = 2>>
  %fa = tilegpu.convert_layout %a : tensor<128x32xf16, #L> -> tensor<128x32xf16, #A>
  // CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32xf16, {{.*}}>, tensor<32x128xf16, {{.*}}> -> tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [4, 2]>>
  %r = tilegpu.mma %fa, %b, %c : tensor<128x32xf16, #A>, tensor<32x128xf16, #B> -> tensor<128x128xf32, #M>
  return %r : tensor<128x128xf32, #M>
}

// CHECK-LABEL: func.func @batched_tf32
// CHECK-SAME: #tilegpu.mma<warpsPerBlock = [1, 2, 2]>
// CHECK-SAME: kWidth = 1
func.func @batched_tf32(%a: tensor<2x32x8xf32, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [1, 2, 2]>, kWidth = 1>>,
                        %b: tensor<2x8x16xf32, #tilegpu.dot_operand<opIdx = 1, parent = #tilegpu.mma<warpsPerBlock = [1, 2, 2]>, kWidth = 1>>,
                        %c: tensor<2x32x16xf32, #tilegpu.mma<warpsPerBlock = [1, 2, 2]>>) -> tensor<2x32x16xf32, #tilegpu.mma<warpsPerBlock = [1, 2, 2]>> {
  %r = tilegpu.mma %a, %b, %c : tensor<2x32x8xf32, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [1, 2, 2]>, kWidth = 1>>, tensor<2x8x16xf32, #tilegpu.dot_operand<opIdx = 1, parent = #tilegpu.mma<warpsPerBlock = [1, 2, 2]>, kWidth = 1>> -> tensor<2x32x16xf32, #tilegpu.mma<warpsPerBlock = [1, 2, 2]>>
  return %r : tensor<2x32x16xf32, #tilegpu.mma<warpsPerBlock = [1, 2, 2]>>
}
