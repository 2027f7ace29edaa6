// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// A reduction's result takes the slice of its operand's layout; reshaping the reduced axis
// back in as a unit axis takes the parent (its chunks cut to the unit axis), and the
// broadcast back along it the parent itself: no data moves, so no conversion remains.

func.func @subtract_row_max(%z: !tile.view<4x256xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x256xf32>
  %m = tile.reduce %t axis 1 : tensor<4x256xf32> -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  %r = tile.reshape %m : tensor<4xf32> -> tensor<4x1xf32>
  %b = tile.broadcast %r : tensor<4x1xf32> -> tensor<4x256xf32>
  %d = arith.subf %t, %b : tensor<4x256xf32>
  tile.store %d, %z[%c0, %c0] : tensor<4x256xf32>, !tile.view<4x256xf32, exclusive>
  return
}
// CHECK: tile.load {{.*}} -> tensor<4x256xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [[TPW:\[[0-9]+, [0-9]+\]]], warpsPerBlock = [[WPB:\[[0-9]+, [0-9]+\]]], order = [1, 0]>>
// CHECK: tile.reduce {{.*}} -> tensor<4xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [[TPW]], warpsPerBlock = [[WPB]], order = [1, 0]>>>
// CHECK: tile.reshape {{.*}} -> tensor<4x1xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [[TPW]], warpsPerBlock = [[WPB]], order = [1, 0]>>
// CHECK: tile.broadcast {{.*}} -> tensor<4x256xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [[TPW]], warpsPerBlock = [[WPB]], order = [1, 0]>>
// CHECK-NOT: convert_layout
// CHECK: arith.subf
