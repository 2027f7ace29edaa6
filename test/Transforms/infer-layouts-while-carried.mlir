// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// A loop that may stop early (an scf.while) carries its row sums in the slice of the rows'
// layout, as an scf.for does: the sum is never converted inside the loop, and the condition
// forwards it in the layout the before region computed it in. Only the store after the loop
// converts it to the anchor of its shape.

func.func @sum_until(%y: !tile.view<64xf32, exclusive>, %w: !tile.view<?x?xf32>, %n: index)
    attributes {tile.kernel = "k", tile.entry = "&::k"} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %r:2 = scf.while (%k = %c0, %a = %zero) : (index, tensor<64xf32>) -> (index, tensor<64xf32>) {
    %more = arith.cmpi ult, %k, %n : index
    scf.condition(%more) %k, %a : index, tensor<64xf32>
  } do {
  ^bb0(%k: index, %a: tensor<64xf32>):
    %wt = tile.load %w[%c0, %k] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %s = tile.reduce %wt axis 1 : tensor<64x128xf32> -> tensor<64xf32> {
    ^bb0(%u: f32, %v: f32):
      %c = arith.addf %u, %v : f32
      tile.yield %c : f32
    }
    %next = arith.addf %a, %s : tensor<64xf32>
    %k1 = arith.addi %k, %c128 : index
    scf.yield %k1, %next : index, tensor<64xf32>
  }
  tile.store %r#1, %y[%c0] : tensor<64xf32>, !tile.view<64xf32, exclusive>
  return
}
// CHECK: arith.constant dense<0.000000e+00> : tensor<64xf32, [[S:#tilegpu.slice<dim = 1, parent = #tilegpu.blocked<[^>]*>>]]>
// CHECK: scf.while {{.*}} : (index, tensor<64xf32, [[S]]>) -> (index, tensor<64xf32, [[S]]>)
// CHECK-NOT: convert_layout
// CHECK: scf.condition({{.*}}) {{.*}} : index, tensor<64xf32, [[S]]>
// CHECK-NOT: convert_layout
// CHECK: tile.reduce {{.*}} -> tensor<64xf32, [[S]]>
// CHECK-NOT: convert_layout
// CHECK: scf.yield {{.*}} : index, tensor<64xf32, [[S]]>
// CHECK: tilegpu.convert_layout {{.*}} -> tensor<64xf32, #tilegpu.blocked
// CHECK-NEXT: tile.store
