// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// A permute takes its operand's layout permuted (registers renamed, nothing moves), but
// that layout would write memory down the columns, so the store converts it to the
// coalesced anchor: the one exchange a transpose needs.

func.func @transpose(%z: !tile.view<32x64xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %p = tile.permute %t [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  tile.store %p, %z[%c0, %c0] : tensor<32x64xf32>, !tile.view<32x64xf32, exclusive>
  return
}
// CHECK: tile.load {{.*}} -> tensor<64x32xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [[[W:[0-9]+]], 1], order = [1, 0]>>
// CHECK-NEXT: tile.permute {{.*}} -> tensor<32x64xf32, #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerBlock = [1, [[W]]], order = [0, 1]>>
// CHECK-NEXT: tilegpu.convert_layout {{.*}} -> tensor<32x64xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [[[W]], 1], order = [1, 0]>>
// CHECK-NEXT: tile.store
