// A tile smaller than one warp's vectors is replicated: 16 floats need 4 lanes of 4, the other
// 28 lanes hold copies (only the first copy stores).
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// CHECK-LABEL: func.func @tiny
// CHECK-SAME: tilegpu.num_warps = 1 : i32
// CHECK: tensor<16xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
func.func @tiny(%x: !tile.view<?xf32>, %i: index) -> tensor<16xf32> {
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<16xf32>
  return %a : tensor<16xf32>
}

// 2x4 f32 on 2 warps: one lane per row of 4, the leftover lanes and warps on the slowest axis.
// CHECK-LABEL: func.func @tiny2d
// CHECK: tensor<2x4xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerBlock = [2, 1], order = [1, 0]>>
func.func @tiny2d(%x: !tile.view<?x?xf32>, %i: index) -> tensor<2x4xf32>
    attributes {tilegpu.num_warps = 2 : i32} {
  %a = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<2x4xf32>
  return %a : tensor<2x4xf32>
}
