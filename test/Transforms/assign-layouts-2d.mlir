// 2-D tiles: the last axis is fastest (order [1, 0]); lanes then warps are spread from it
// outward without exceeding the tile.
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// 32x64 f32 = 512 vectors of 4: 8 warps. Lanes: 16 along the 64-wide axis (16 x 4 = 64), the
// remaining 2 along rows; warps all along rows.
// CHECK-LABEL: func.func @wide
// CHECK-SAME: tilegpu.num_warps = 8 : i32
// CHECK: tile.load {{.*}} -> tensor<32x64xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1], order = [1, 0]>>
func.func @wide(%x: !tile.view<?x?xf32>, %i: index) -> tensor<32x64xf32> {
  %a = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  return %a : tensor<32x64xf32>
}

// 64x2 f32: the fastest axis holds only 2 elements, so the vector is 2 wide and one lane
// covers the row; the 32 lanes go down the rows.
// The function type is re-typed along with the values.
// CHECK-LABEL: func.func @narrow
// CHECK-SAME: -> tensor<64x2xf32, #tilegpu.blocked
// CHECK-SAME: tilegpu.num_warps = 1 : i32
// CHECK: tile.load {{.*}} -> tensor<64x2xf32, #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerBlock = [1, 1], order = [1, 0]>>
func.func @narrow(%x: !tile.view<?x?xf32>, %i: index) -> tensor<64x2xf32> {
  %a = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x2xf32>
  return %a : tensor<64x2xf32>
}
