// Blocks per multiprocessor: as many as the registers the tile values live at once need (plus
// 16 per thread) allow, at most half the multiprocessor's 2048 threads; 1 with mma.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --tile-mma-layouts --tilegpu-plan-shared-memory --tilegpu-plan-occupancy | FileCheck %s

// A 16K-float row over 256 threads: 64 registers per thread live at once, so 80 with the
// headroom: 65536 / (256 x 80) = 3 blocks.
// CHECK-LABEL: func.func @long_row
// CHECK-SAME: tilegpu.blocks_per_sm = 3 : i32
func.func @long_row(%t: tensor<1x16384xf32>) -> tensor<1x16384xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %e = math.exp %t : tensor<1x16384xf32>
  return %e : tensor<1x16384xf32>
}

// Twice the registers: one block.
// CHECK-LABEL: func.func @two_long_rows
// CHECK-SAME: tilegpu.blocks_per_sm = 1 : i32
func.func @two_long_rows(%t: tensor<1x16384xf32>, %u: tensor<1x16384xf32>) -> tensor<1x16384xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %e = math.exp %t : tensor<1x16384xf32>
  %f = math.exp %u : tensor<1x16384xf32>
  %s = arith.addf %e, %f : tensor<1x16384xf32>
  return %s : tensor<1x16384xf32>
}

// A broadcast row holds one register: the reduction's result adds almost nothing.
// CHECK-LABEL: func.func @row_minus_its_max
// CHECK-SAME: tilegpu.blocks_per_sm = 3 : i32
func.func @row_minus_its_max(%t: tensor<1x16384xf32>) -> tensor<1x16384xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %m = tile.reduce %t axis 1 : tensor<1x16384xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    tile.yield %c : f32
  }
  %r = tile.reshape %m : tensor<1xf32> -> tensor<1x1xf32>
  %b = tile.broadcast %r : tensor<1x1xf32> -> tensor<1x16384xf32>
  %d = arith.subf %t, %b : tensor<1x16384xf32>
  return %d : tensor<1x16384xf32>
}

// Few registers: the thread limit (half of 2048 per multiprocessor) sets 4 blocks of 256.
// CHECK-LABEL: func.func @light
// CHECK-SAME: tilegpu.blocks_per_sm = 4 : i32
func.func @light(%t: tensor<2048xf32>) -> tensor<2048xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %r = arith.addf %t, %t : tensor<2048xf32>
  return %r : tensor<2048xf32>
}

// CHECK-LABEL: func.func @with_mma
// CHECK-SAME: tilegpu.blocks_per_sm = 1 : i32
func.func @with_mma(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.mma %a, %b, %acc : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
