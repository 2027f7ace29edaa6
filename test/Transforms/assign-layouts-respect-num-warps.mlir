// A kernel that already carries tilegpu.num_warps keeps it: the 4096-element tile would get 8
// warps, the attribute says 2.
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// CHECK-LABEL: func.func @given
// CHECK-SAME: tilegpu.num_warps = 2 : i32
// CHECK: tensor<4096xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>>
func.func @given(%x: !tile.view<?xf32>, %i: index) -> tensor<4096xf32>
    attributes {tilegpu.num_warps = 2 : i32} {
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<4096xf32>
  return %a : tensor<4096xf32>
}
