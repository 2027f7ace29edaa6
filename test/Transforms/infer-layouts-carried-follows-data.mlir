// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// An accumulator rescaled and then added to (acc * alpha + x) takes the layout of what is added
// each step, not the other way round: the rescaled accumulator follows whatever layout the loop
// settles on, so the addend's layout wins the tie and the loop converts nothing.

func.func @rescaled_sum(%z: !tile.view<1x128xf32, exclusive>, %x: !tile.view<?x?xf32>,
                        %n: index) attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<1x128xf32>
  %half = arith.constant dense<0.5> : tensor<1xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<1x128xf32>) {
    %t = tile.load %x[%k, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %s = tile.reduce %t axis 0 : tensor<64x128xf32> -> tensor<128xf32> {
    ^bb0(%u: f32, %v: f32):
      %c = arith.addf %u, %v : f32
      tile.yield %c : f32
    }
    %r = tile.reshape %s : tensor<128xf32> -> tensor<1x128xf32>
    %h = tile.load %x[%k, %k] : !tile.view<?x?xf32> -> tensor<1xf32>
    %alpha = arith.mulf %h, %half : tensor<1xf32>
    %b = tile.broadcast %alpha : tensor<1xf32> -> tensor<1x128xf32>
    %scaled = arith.mulf %a, %b : tensor<1x128xf32>
    %next = arith.addf %scaled, %r : tensor<1x128xf32>
    scf.yield %next : tensor<1x128xf32>
  }
  tile.store %acc, %z[%c0, %c0] : tensor<1x128xf32>, !tile.view<1x128xf32, exclusive>
  return
}
// CHECK: scf.for {{.*}} -> (tensor<1x128xf32, [[R:#tilegpu\.[a-z]+<.*>]]>) {
// CHECK-NOT: convert_layout {{.*}} -> tensor<1x128xf32
// CHECK: tile.reshape {{.*}} -> tensor<1x128xf32, [[R]]>
// CHECK-NOT: convert_layout {{.*}} -> tensor<1x128xf32
// CHECK: arith.addf {{.*}} : tensor<1x128xf32, [[R]]>
// CHECK-NEXT: scf.yield
