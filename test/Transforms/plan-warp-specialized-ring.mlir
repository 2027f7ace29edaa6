// A warp-specialized ring through the planning passes: the rings and their memory barriers
// are live from their allocation through the producer's loop and the program's; an exchange
// after the loop may reuse the rings' bytes behind a barrier; the producer warps give
// registers to the program's eight (one block per multiprocessor of 384 threads: 168 each
// at launch, 120 kept by the producer, 168 + 48 / 2 = 192 for the program).
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-plan-shared-memory --tilegpu-place-barriers --tilegpu-plan-occupancy | FileCheck %s

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1], order = [1, 0]>
// CHECK-LABEL: func.func @ring
// CHECK-SAME: tilegpu.blocks_per_sm = 1
// CHECK-SAME: tilegpu.smem_bytes = 32800
// Two stages of 128 x 64 f16 at 0, the two rings of two barriers after them.
// CHECK: tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64}
// CHECK: tilegpu.alloc_barriers {arrivals = 128 : i32, tilegpu.smem_offset = 32768 : i64}
// CHECK: tilegpu.alloc_barriers {arrivals = 8 : i32, tilegpu.smem_offset = 32784 : i64}
// CHECK: tilegpu.producer attributes {consumerRegisters = 192 : i32, registers = 120 : i32, warps = 4 : i32}
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
// CHECK-NOT: needs_no_barrier
func.func @ring(%x: !tile.view<?x?xf16>, %t: tensor<128x64xf32>, %n: index) -> tensor<128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x64xf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  %empty = tilegpu.alloc_barriers {arrivals = 8 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c2 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<2>
      tilegpu.async_copy %x[%i, %c0] bounds[%n, %n] into %b[%s] {vector = 8 : i32, tile = tensor<128x64xf16, #L>} : !tile.view<?x?xf16>, !tilegpu.buffer<2, tensor<128x64xf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<2>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    %s = arith.remui %i, %c2 : index
    tilegpu.barrier_wait %full[%s], %c0 : !tilegpu.barriers<2>
    %h = tilegpu.local_load %b[%s] : !tilegpu.buffer<2, tensor<128x64xf16>, #S> -> tensor<128x64xf16, #L>
    tilegpu.barrier_arrive %empty[%s] : !tilegpu.barriers<2>
  }
  %m = tile.reduce %t axis 1 : tensor<128x64xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %c: f32):
    %d = arith.maximumf %a, %c : f32
    tile.yield %d : f32
  }
  return %m : tensor<128xf32>
}
