// Under a register bound nvcc loads a tile used only by elementwise ops that end in a store
// one vector access at a time, where the chain needs it: the weights of a row scaled by its
// sum cost 4 registers, not 32, and the kernel fits 8 blocks of 128 threads (the most the
// plan aims for) instead of 6. When the weights also feed the reduction they are held whole.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tilegpu-plan-shared-memory --tilegpu-plan-occupancy | FileCheck %s

// CHECK-LABEL: func.func @streamed_weights
// CHECK-SAME: tilegpu.blocks_per_sm = 8 : i32
func.func @streamed_weights(%y: !tile.view<1x4096xf32, exclusive>, %x: !tile.view<?x?xf32>,
                            %w: !tile.view<?xf32>) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %r = tile.block_id 0
  %t = tile.load %x[%r, %c0] : !tile.view<?x?xf32> -> tensor<1x4096xf32>
  %s = tile.reduce %t axis 1 : tensor<1x4096xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    tile.yield %sum : f32
  }
  %s2 = tile.reshape %s : tensor<1xf32> -> tensor<1x1xf32>
  %sb = tile.broadcast %s2 : tensor<1x1xf32> -> tensor<1x4096xf32>
  %g = tile.load %w[%c0] : !tile.view<?xf32> -> tensor<4096xf32>
  %gb = tile.broadcast %g : tensor<4096xf32> -> tensor<1x4096xf32>
  %p = arith.mulf %t, %sb : tensor<1x4096xf32>
  %o = arith.mulf %p, %gb : tensor<1x4096xf32>
  tile.store %o, %y[%c0, %c0] : tensor<1x4096xf32>, !tile.view<1x4096xf32, exclusive>
  return
}

// CHECK-LABEL: func.func @weights_in_the_reduction
// CHECK-SAME: tilegpu.blocks_per_sm = 6 : i32
func.func @weights_in_the_reduction(%y: !tile.view<1x4096xf32, exclusive>,
                                    %x: !tile.view<?x?xf32>, %w: !tile.view<?xf32>)
    attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %r = tile.block_id 0
  %t = tile.load %x[%r, %c0] : !tile.view<?x?xf32> -> tensor<1x4096xf32>
  %g = tile.load %w[%c0] : !tile.view<?xf32> -> tensor<4096xf32>
  %gb = tile.broadcast %g : tensor<4096xf32> -> tensor<1x4096xf32>
  %tg = arith.mulf %t, %gb : tensor<1x4096xf32>
  %s = tile.reduce %tg axis 1 : tensor<1x4096xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    tile.yield %sum : f32
  }
  %s2 = tile.reshape %s : tensor<1xf32> -> tensor<1x1xf32>
  %sb = tile.broadcast %s2 : tensor<1x1xf32> -> tensor<1x4096xf32>
  %p = arith.mulf %t, %sb : tensor<1x4096xf32>
  %o = arith.mulf %p, %gb : tensor<1x4096xf32>
  tile.store %o, %y[%c0, %c0] : tensor<1x4096xf32>, !tile.view<1x4096xf32, exclusive>
  return
}
