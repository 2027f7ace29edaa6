// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// An elementwise op between a broadcast and a loaded tile takes the load's layout when making
// the broadcast again there moves fewer elements than converting the load: attention's
// weights (16 values) broadcast along the rows of V (16 x 128) follow V, so V stays in the
// registers it was loaded into. Here the weights need not move either: they are sums along the
// rows of K, which was loaded like V, and reach the broadcast through reshapes that keep each
// element in its thread.

func.func @weighted_rows(%z: !tile.view<128xf32, exclusive>, %k: !tile.view<?x?xf32>,
                         %v: !tile.view<?x?xf32>) attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %kt = tile.load %k[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x128xf32>
  %s = tile.reduce %kt axis 1 : tensor<16x128xf32> -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %row = tile.reshape %s : tensor<16xf32> -> tensor<1x16xf32>
  %p = math.exp %row : tensor<1x16xf32>
  %col = tile.reshape %p : tensor<1x16xf32> -> tensor<16x1xf32>
  %pb = tile.broadcast %col : tensor<16x1xf32> -> tensor<16x128xf32>
  %vt = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x128xf32>
  %w = arith.mulf %pb, %vt : tensor<16x128xf32>
  %o = tile.reduce %w axis 0 : tensor<16x128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  tile.store %o, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}
// CHECK-NOT: convert_layout
// CHECK: [[B:%.+]] = tile.broadcast {{.*}} -> tensor<16x128xf32, [[L:#tilegpu.blocked<[^>]*>]]>
// CHECK-NOT: convert_layout
// CHECK: [[V:%.+]] = tile.load {{.*}} -> tensor<16x128xf32, [[L]]>
// CHECK-NOT: convert_layout
// CHECK: arith.mulf [[B]], [[V]] : tensor<16x128xf32, [[L]]>
