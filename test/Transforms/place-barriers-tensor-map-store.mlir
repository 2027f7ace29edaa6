// A store through a tensor map begins with its own barrier and leaves its stages in flight:
// an exchange over those bytes after it gets its leading barrier, and a store over stages a
// warpgroup mma may still be reading is refused.
// RUN: tilecc-opt %s --split-input-file --tilegpu-place-barriers -verify-diagnostics | FileCheck %s

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [1, 8], order = [1, 0]>
#R = #tilegpu.slice<dim = 1, parent = #L>
// CHECK-LABEL: func.func @exchange_after
// CHECK: tilegpu.tensor_map_store
// CHECK: tile.reduce
// CHECK-NOT: tilegpu.needs_no_barrier
// CHECK-SAME: tilegpu.smem_offset = 0
func.func @exchange_after(%acc: tensor<128x256xf32, #MMA>, %m: !tilegpu.tensor_map<tensor<128x32xf32>, #C>,
                          %t: tensor<64x64xf32, #L>, %i: index, %bars: !tilegpu.barriers<1>) -> tensor<64xf32, #R>
    attributes {tilegpu.num_warps = 8 : i32} {
  tilegpu.producer attributes {warps = 4 : i32} {
    tilegpu.barrier_arrive %bars[%i] : !tilegpu.barriers<1>
  }
  %b = tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64} : !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  tilegpu.tensor_map_store %acc, %m[%i, %i] through %b : tensor<128x256xf32, #MMA>, !tilegpu.tensor_map<tensor<128x32xf32>, #C>, !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  %r = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32, #L> -> tensor<64xf32, #R> {
  ^bb0(%x: f32, %y: f32):
    %d = arith.maximumf %x, %y : f32
    tile.yield %d : f32
  }
  return %r : tensor<64xf32, #R>
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
#SA = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
func.func @mma_still_reading(%acc: tensor<128x256xf32, #MMA>, %m: !tilegpu.tensor_map<tensor<128x32xf32>, #C>,
                             %i: index, %bars: !tilegpu.barriers<1>)
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  tilegpu.producer attributes {warps = 4 : i32} {
    tilegpu.barrier_arrive %bars[%i] : !tilegpu.barriers<1>
  }
  %a = tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64} : !tilegpu.buffer<1, tensor<128x64xbf16>, #SA>
  %bb = tilegpu.alloc_buffer {tilegpu.smem_offset = 16384 : i64} : !tilegpu.buffer<1, tensor<64x256xbf16>, #SB>
  %p = tilegpu.warpgroup_mma %a[%c0], %bb[%c0], %acc : !tilegpu.buffer<1, tensor<128x64xbf16>, #SA>, !tilegpu.buffer<1, tensor<64x256xbf16>, #SB> -> tensor<128x256xf32, #MMA>
  %b = tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64} : !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  // expected-error @+1 {{stores through shared memory that async copies or a warpgroup mma may still be using}}
  tilegpu.tensor_map_store %acc, %m[%i, %i] through %b : tensor<128x256xf32, #MMA>, !tilegpu.tensor_map<tensor<128x32xf32>, #C>, !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  %r = tilegpu.warpgroup_wait %p {pending = 0 : i32} : tensor<128x256xf32, #MMA>
  return
}
