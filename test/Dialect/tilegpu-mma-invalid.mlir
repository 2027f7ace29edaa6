// The verifiers of the fragment layouts and of tilegpu.mma reject malformed IR.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{warpsPerBlock must be powers of two}}
#M = #tilegpu.mma<warpsPerBlock = [3, 2]>
func.func @warps(%c: tensor<64x64xf32, #M>) {
  return
}

// -----

// expected-error @+1 {{an mma layout spreads no warps over the batch}}
#M = #tilegpu.mma<warpsPerBlock = [2, 2, 2]>
func.func @batch_warps(%c: tensor<4x64x64xf32, #M>) {
  return
}

// -----

// expected-error @+1 {{kWidth is 1 (TF32), 2 (16-bit inputs) or 4 (f8)}}
#A = #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [1, 1]>, kWidth = 3>
func.func @kwidth(%a: tensor<16x16xf16, #A>) {
  return
}

// -----

#M = #tilegpu.mma<warpsPerBlock = [2, 2]>
#A = #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [2, 2]>, kWidth = 2>
#B = #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [2, 2]>, kWidth = 2>
func.func @operand_roles(%a: tensor<32x16xf16, #A>, %b: tensor<16x16xf16, #B>, %c: tensor<32x16xf32, #M>) {
  // expected-error @+1 {{operand layouts must be opIdx 0 and 1 of the accumulator's layout}}
  %r = tilegpu.mma %a, %b, %c : tensor<32x16xf16, #A>, tensor<16x16xf16, #B> -> tensor<32x16xf32, #M>
  return
}

// -----

#M = #tilegpu.mma<warpsPerBlock = [2, 2]>
#A = #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [2, 2]>, kWidth = 2>
#B = #tilegpu.dot_operand<opIdx = 1, parent = #tilegpu.mma<warpsPerBlock = [2, 2]>, kWidth = 2>
func.func @tf32_kwidth(%a: tensor<32x16xf32, #A>, %b: tensor<16x16xf32, #B>, %c: tensor<32x16xf32, #M>) {
  // expected-error @+1 {{kWidth must be 1 for 'f32' inputs}}
  %r = tilegpu.mma %a, %b, %c : tensor<32x16xf32, #A>, tensor<16x16xf32, #B> -> tensor<32x16xf32, #M>
  return
}

// -----

#M = #tilegpu.mma<warpsPerBlock = [4, 1]>
#A = #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [4, 1]>, kWidth = 2>
#B = #tilegpu.dot_operand<opIdx = 1, parent = #tilegpu.mma<warpsPerBlock = [4, 1]>, kWidth = 2>
func.func @not_whole_tiles(%a: tensor<32x16xf16, #A>, %b: tensor<16x16xf16, #B>, %c: tensor<32x16xf32, #M>) {
  // expected-error @+1 {{a tile is not a whole number of instruction tiles per warp}}
  %r = tilegpu.mma %a, %b, %c : tensor<32x16xf16, #A>, tensor<16x16xf16, #B> -> tensor<32x16xf32, #M>
  return
}

// -----

#M = #tilegpu.mma<warpsPerBlock = [1, 1]>
#A = #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [1, 1]>, kWidth = 2>
#B = #tilegpu.dot_operand<opIdx = 1, parent = #tilegpu.mma<warpsPerBlock = [1, 1]>, kWidth = 2>
func.func @no_layouts(%a: tensor<16x16xf16>, %b: tensor<16x16xf16, #B>, %c: tensor<16x16xf32, #M>) {
  // expected-error @+1 {{expects dot operand layouts on a and b and an mma layout on the accumulator}}
  %r = tilegpu.mma %a, %b, %c : tensor<16x16xf16>, tensor<16x16xf16, #B> -> tensor<16x16xf32, #M>
  return
}
