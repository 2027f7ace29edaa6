// Programs of fewer than 128 threads share a CUDA block of 128 threads, unless they use shared
// memory (a block-wide barrier would then wait for programs of other rows).
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-plan-shared-memory --tilegpu-plan-occupancy | FileCheck %s

// CHECK-LABEL: func.func @one_warp
// CHECK-SAME: tilegpu.programs_per_block = 4 : i32
func.func @one_warp(%t: tensor<128xf32>) -> tensor<128xf32> attributes {tilegpu.num_warps = 1 : i32} {
  %r = arith.addf %t, %t : tensor<128xf32>
  return %r : tensor<128xf32>
}

// CHECK-LABEL: func.func @two_warps_with_shared_memory
// CHECK-SAME: tilegpu.programs_per_block = 1 : i32
// CHECK-SAME: tilegpu.smem_bytes = 16
func.func @two_warps_with_shared_memory(%t: tensor<1x4096xf32>) -> tensor<1xf32> attributes {tilegpu.num_warps = 2 : i32} {
  %s = tile.reduce %t axis 1 : tensor<1x4096xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  return %s : tensor<1xf32>
}

// CHECK-LABEL: func.func @four_warps
// CHECK-SAME: tilegpu.programs_per_block = 1 : i32
func.func @four_warps(%t: tensor<1024xf32>) -> tensor<1024xf32> attributes {tilegpu.num_warps = 4 : i32} {
  %r = arith.addf %t, %t : tensor<1024xf32>
  return %r : tensor<1024xf32>
}
