// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// A GEMV's K loop: the broadcast of x over the rows of W is free (x's lanes already run
// along the columns W's lanes do), the row sums are a slice of W's layout, and the
// accumulator the loop carries takes that slice, so the loop converts nothing; only the
// final store goes back to the anchor of its shape.

func.func @gemv(%y: !tile.view<64xf32, exclusive>, %w: !tile.view<?x?xf32>, %x: !tile.view<?xf32>,
                %n: index) attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %acc = scf.for %k = %c0 to %n step %c128 iter_args(%a = %zero) -> (tensor<64xf32>) {
    %wt = tile.load %w[%c0, %k] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %xt = tile.load %x[%k] : !tile.view<?xf32> -> tensor<128xf32>
    %xb = tile.broadcast %xt : tensor<128xf32> -> tensor<64x128xf32>
    %p = arith.mulf %wt, %xb : tensor<64x128xf32>
    %s = tile.reduce %p axis 1 : tensor<64x128xf32> -> tensor<64xf32> {
    ^bb0(%u: f32, %v: f32):
      %c = arith.addf %u, %v : f32
      tile.yield %c : f32
    }
    %next = arith.addf %a, %s : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  tile.store %acc, %y[%c0] : tensor<64xf32>, !tile.view<64xf32, exclusive>
  return
}
// CHECK: arith.constant dense<0.000000e+00> : tensor<64xf32, #tilegpu.slice<dim = 1, parent = [[W:#tilegpu.blocked<[^>]*>]]>>
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #tilegpu.slice<dim = 1, parent = [[W]]>>)
// CHECK-NOT: convert_layout
// CHECK: tile.broadcast {{.*}} -> tensor<64x128xf32, [[W]]>
// CHECK-NOT: convert_layout
// CHECK: scf.yield
// CHECK: tilegpu.convert_layout {{.*}} -> tensor<64xf32, #tilegpu.blocked
// CHECK-NEXT: tile.store
