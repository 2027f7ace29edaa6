// A 128-element f32 tile: 16-byte vectors (4 floats), one warp, every tensor type re-typed.
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// CHECK-LABEL: func.func @add
// CHECK-SAME: attributes {tile.kernel = "add<128>", tilegpu.num_warps = 1 : i32}
func.func @add(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %i: index)
    attributes {tile.kernel = "add<128>"} {
  // CHECK: tile.load {{.*}} -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  // CHECK: arith.addf {{.*}} : tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
  %c = arith.addf %a, %a : tensor<128xf32>
  // CHECK: tile.store {{.*}} : tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>, <128xf32, exclusive>
  tile.store %c, %z[%i] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}
