// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// An elementwise op whose operands arrive in different layouts takes one of them and
// converts the others; a constant operand is made in the chosen layout instead.

func.func @add_row_sums(%z: !tile.view<64xf32, exclusive>, %x: !tile.view<?x?xf32>,
                        %y: !tile.view<?xf32>) attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %s = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %v = tile.load %y[%c0] : !tile.view<?xf32> -> tensor<64xf32>
  %two = arith.constant dense<2.0> : tensor<64xf32>
  %w = arith.mulf %v, %two : tensor<64xf32>
  %r = arith.addf %w, %s : tensor<64xf32>
  tile.store %r, %z[%c0] : tensor<64xf32>, !tile.view<64xf32, exclusive>
  return
}
// CHECK: [[TWO:%.+]] = arith.constant dense<2.000000e+00> : tensor<64xf32, [[A:#tilegpu.blocked<[^>]*>]]>
// CHECK: [[S:%.+]] = tile.reduce {{.*}} -> tensor<64xf32, #tilegpu.slice<
// CHECK: [[V:%.+]] = tile.load {{.*}} -> tensor<64xf32, [[A]]>
// CHECK: [[W:%.+]] = arith.mulf [[V]], [[TWO]] : tensor<64xf32, [[A]]>
// CHECK: [[C:%.+]] = tilegpu.convert_layout [[S]] {{.*}} -> tensor<64xf32, [[A]]>
// CHECK: arith.addf [[W]], [[C]] : tensor<64xf32, [[A]]>
