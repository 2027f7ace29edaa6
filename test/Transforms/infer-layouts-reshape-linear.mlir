// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// A reshape keeps every element in its thread under the operand's own bases seen with the
// result's shape (#tilegpu.linear), where no named layout does: the row sums of a 64 x 128
// tile reshaped to 1 x 64 and reduced again need no exchange between the two reductions.

func.func @sum_of_row_sums(%z: !tile.view<1xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
  %s = tile.reduce %t axis 1 : tensor<64x128xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %r = tile.reshape %s : tensor<64xf32> -> tensor<1x64xf32>
  %m = tile.reduce %r axis 1 : tensor<1x64xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  tile.store %m, %z[%c0] : tensor<1xf32>, !tile.view<1xf32, exclusive>
  return
}
// CHECK: tile.reduce {{.*}} -> tensor<64xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked
// CHECK-NOT: convert_layout
// CHECK: tile.reshape {{.*}} -> tensor<1x64xf32, #tilegpu.linear<
// CHECK-NOT: convert_layout
// CHECK: tile.reduce {{.*}} -> tensor<1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.linear<
