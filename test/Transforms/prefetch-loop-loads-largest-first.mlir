// Where the registers allow only some of a loop's loads to be issued a step early,
// tile-prefetch-loop-loads takes the tiles with the most bytes first: a GEMV's weight tile is
// prefetched, and the vector tile every program reads (from the cache) stays in the step.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tile-prefetch-loop-loads | FileCheck %s

// CHECK-LABEL: func.func @gemv
// CHECK: %[[FIRST:.*]] = tilegpu.global_load %arg1{{.*}} -> tensor<8x1024xbf16
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^,)]*}}, %[[W:.*]] = %[[FIRST]])
// CHECK: %[[NEXT:.*]] = tilegpu.global_load %arg1{{.*}} -> tensor<8x1024xbf16
// CHECK: arith.extf %[[W]]
// CHECK: tilegpu.global_load %arg2{{.*}} -> tensor<1024xf32
// CHECK: scf.yield %{{.*}}, %[[NEXT]]
func.func @gemv(%y: !tile.view<8xf32, exclusive>, %w: !tile.view<?x?xbf16>, %x: !tile.view<?xf32>) {
  %row = tile.block_id 0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %k_len = tile.dim %w, 1 : <?x?xbf16>
  %steps = arith.ceildivsi %k_len, %c1024 : index
  %i = arith.muli %row, %c8 : index
  %r = scf.for %k = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (tensor<8xf32>) {
    %o = arith.muli %k, %c1024 : index
    %wt = tile.load %w[%i, %o] : <?x?xbf16> -> tensor<8x1024xbf16>
    %wf = arith.extf %wt : tensor<8x1024xbf16> to tensor<8x1024xf32>
    %xt = tile.load %x[%o] : <?xf32> -> tensor<1024xf32>
    %xb = tile.broadcast %xt : tensor<1024xf32> -> tensor<8x1024xf32>
    %p = arith.mulf %wf, %xb : tensor<8x1024xf32>
    %s = tile.reduce %p axis 1 : tensor<8x1024xf32> -> tensor<8xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tile.yield %t : f32
    }
    %acc2 = arith.addf %acc, %s : tensor<8xf32>
    scf.yield %acc2 : tensor<8xf32>
  }
  tile.store %r, %y[%c0] : tensor<8xf32>, <8xf32, exclusive>
  return
}
