// The verifiers of blocked shared layouts and warpgroup mma.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a block of the fastest axis is a power of two holding every swizzled group of its rows}}
#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 32>
func.func @block_narrower_than_swizzle(%b: !tilegpu.buffer<2, tensor<64x128xf16>, #S>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
// expected-error @+1 {{blocks of 64 elements do not divide a row}}
func.func @block_wider_than_row(%b: !tilegpu.buffer<2, tensor<64x32xf16>, #S>) {
  return
}

// -----

#SA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#M = #tilegpu.mma<warpsPerBlock = [4, 2]>
func.func @warps_side_by_side(%a: !tilegpu.buffer<3, tensor<128x32xf16>, #SA>,
                              %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>, %s: index,
                              %c: tensor<128x128xf32, #M>) -> tensor<128x128xf32, #M> {
  // expected-error @+1 {{the accumulator's layout must be a rank-2 mma layout of warpgroups stacked along M}}
  %r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<128x32xf16>, #SA>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x128xf32, #M>
  return %r : tensor<128x128xf32, #M>
}

// -----

#SA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#W = #tilegpu.mma<warpsPerBlock = [8, 1]>
func.func @unblocked_long_rows(%a: !tilegpu.buffer<3, tensor<128x32xf16>, #SA>,
                               %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>, %s: index,
                               %c: tensor<128x128xf32, #W>) -> tensor<128x128xf32, #W> {
  // expected-error @+1 {{an operand buffer is not laid out for wgmma}}
  %r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<128x32xf16>, #SA>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x128xf32, #W>
  return %r : tensor<128x128xf32, #W>
}

// -----

#SA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#W = #tilegpu.mma<warpsPerBlock = [8, 1]>
func.func @shapes(%a: !tilegpu.buffer<3, tensor<128x32xf16>, #SA>,
                  %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>, %s: index,
                  %c: tensor<128x64xf32, #W>) -> tensor<128x64xf32, #W> {
  // expected-error @+1 {{operand shapes do not multiply to the accumulator's}}
  %r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<128x32xf16>, #SA>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x64xf32, #W>
  return %r : tensor<128x64xf32, #W>
}

// -----

#SA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#W = #tilegpu.mma<warpsPerBlock = [8, 1]>
func.func @too_few_rows(%a: !tilegpu.buffer<3, tensor<64x32xf16>, #SA>,
                        %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>, %s: index,
                        %c: tensor<64x128xf32, #W>) -> tensor<64x128xf32, #W> {
  // expected-error @+1 {{M must be a multiple of 16 rows per warp and K of 32 bytes}}
  %r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<64x32xf16>, #SA>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<64x128xf32, #W>
  return %r : tensor<64x128xf32, #W>
}

// -----

// f8 operands are read K-major only: B stored row-major (N-major) is refused.
#SA = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]>
#SB = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]>
#M = #tilegpu.mma<warpsPerBlock = [4, 1]>
func.func @f8_b_row_major(%a: !tilegpu.buffer<3, tensor<64x128xf8E4M3FN>, #SA>,
                          %b: !tilegpu.buffer<3, tensor<128x128xf8E4M3FN>, #SB>, %s: index,
                          %c: tensor<64x128xf32, #M>) -> tensor<64x128xf32, #M> {
  // expected-error @+1 {{an operand buffer is not laid out for wgmma}}
  %r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<64x128xf8E4M3FN>, #SA>, !tilegpu.buffer<3, tensor<128x128xf8E4M3FN>, #SB> -> tensor<64x128xf32, #M>
  return %r : tensor<64x128xf32, #M>
}

// -----

// TF32 operands are read K-major only too: A stored column-major (M-major) is refused.
#SA = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]>
#SB = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]>
#M = #tilegpu.mma<warpsPerBlock = [4, 1]>
func.func @tf32_a_column_major(%a: !tilegpu.buffer<3, tensor<64x32xf32>, #SA>,
                               %b: !tilegpu.buffer<3, tensor<32x64xf32>, #SB>, %s: index,
                               %c: tensor<64x64xf32, #M>) -> tensor<64x64xf32, #M> {
  // expected-error @+1 {{an A operand buffer needs a stage and the wgmma layout}}
  %r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<64x32xf32>, #SA>, !tilegpu.buffer<3, tensor<32x64xf32>, #SB> -> tensor<64x64xf32, #M>
  return %r : tensor<64x64xf32, #M>
}

// -----

// f8 and f16 do not mix.
#SA = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]>
#M = #tilegpu.mma<warpsPerBlock = [4, 1]>
func.func @f8_times_f16(%a: !tilegpu.buffer<3, tensor<64x128xf8E4M3FN>, #SA>,
                        %b: !tilegpu.buffer<3, tensor<128x64xf16>, #SB>, %s: index,
                        %c: tensor<64x64xf32, #M>) -> tensor<64x64xf32, #M> {
  // expected-error @+1 {{the operands must both be f16, both bf16, both f32 (TF32), or both f8 (e4m3 or e5m2)}}
  %r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<64x128xf8E4M3FN>, #SA>, !tilegpu.buffer<3, tensor<128x64xf16>, #SB> -> tensor<64x64xf32, #M>
  return %r : tensor<64x64xf32, #M>
}

// -----

#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#W = #tilegpu.mma<warpsPerBlock = [8, 1]>
#B = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [8, 1], order = [1, 0]>
func.func @registers_not_fragments(%a: tensor<128x32xf16, #B>,
                                   %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>, %s: index,
                                   %c: tensor<128x128xf32, #W>) -> tensor<128x128xf32, #W> {
  // expected-error @+1 {{an A operand in registers must be a 16-bit tile in the dot operand layout (opIdx 0, kWidth 2) of the accumulator's, without a stage}}
  %r = tilegpu.warpgroup_mma %a, %b[%s], %c : tensor<128x32xf16, #B>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x128xf32, #W>
  return %r : tensor<128x128xf32, #W>
}

// -----

#SA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#W = #tilegpu.mma<warpsPerBlock = [8, 1]>
func.func @buffer_without_stage(%a: !tilegpu.buffer<3, tensor<128x32xf16>, #SA>,
                                %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>, %s: index,
                                %c: tensor<128x128xf32, #W>) -> tensor<128x128xf32, #W> {
  // expected-error @+1 {{an A operand buffer needs a stage}}
  %r = tilegpu.warpgroup_mma %a, %b[%s], %c : !tilegpu.buffer<3, tensor<128x32xf16>, #SA>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x128xf32, #W>
  return %r : tensor<128x128xf32, #W>
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @restage_rounds_f16(%r: !tilegpu.buffer<3, tensor<64x64xf16>, #S>, %s: index) {
  // expected-error @+1 {{rounds only f32 elements to TF32}}
  tilegpu.restage %r[%s] into %r[%s] {round_tf32} : !tilegpu.buffer<3, tensor<64x64xf16>, #S>, !tilegpu.buffer<3, tensor<64x64xf16>, #S>
  return
}

// -----

#S = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]>
#T = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1]>
func.func @restage_other_tile(%r: !tilegpu.buffer<3, tensor<128x128xf8E4M3FN>, #S>,
                              %k: !tilegpu.buffer<2, tensor<128x128xf8E5M2>, #T>, %s: index) {
  // expected-error @+1 {{restages a tile into a buffer of another tile type}}
  tilegpu.restage %r[%s] into %k[%s] : !tilegpu.buffer<3, tensor<128x128xf8E4M3FN>, #S>, !tilegpu.buffer<2, tensor<128x128xf8E5M2>, #T>
  return
}

// -----

#S = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
#P = #tilegpu.shared<vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]>
func.func @restage_two_row_major(%r: !tilegpu.buffer<3, tensor<64x32xf32>, #S>,
                                 %k: !tilegpu.buffer<2, tensor<64x32xf32>, #P>, %s: index) {
  // expected-error @+1 {{restages between one layout, or a row-major and a column-major one}}
  tilegpu.restage %r[%s] into %k[%s] : !tilegpu.buffer<3, tensor<64x32xf32>, #S>, !tilegpu.buffer<2, tensor<64x32xf32>, #P>
  return
}

// -----

#S = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @restage_single_elements(%r: !tilegpu.buffer<3, tensor<64x32xf32>, #S>, %s: index) {
  // expected-error @+1 {{restages stages stored in 16-byte groups (the ring layout)}}
  tilegpu.restage %r[%s] into %r[%s] {round_tf32} : !tilegpu.buffer<3, tensor<64x32xf32>, #S>, !tilegpu.buffer<3, tensor<64x32xf32>, #S>
  return
}
