// A ring buffer is live from its allocation through the loops that use it: an exchange in
// the loop gets other bytes, one after the loop may reuse the ring's.
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-plan-shared-memory | FileCheck %s
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-plan-shared-memory --tilegpu-place-barriers | FileCheck %s --check-prefix=BARRIER

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK-LABEL: func.func @ring
// CHECK-SAME: tilegpu.smem_bytes = 16640
// Two stages of 64 x 64 f16: 16384 bytes at 0.
// CHECK: tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64}
// CHECK: scf.for
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 16384 : i64}
// CHECK: }
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
// In the loop, the exchange's bytes were not touched since the loop's barrier. After it, the
// ring's last copies are waited for by each thread, but may still land for others: the
// exchange that reuses the ring's bytes keeps its barrier, although the loop's exchange had
// one since the copies started.
// BARRIER-LABEL: func.func @ring
// BARRIER: scf.for
// BARRIER: tilegpu.barrier
// BARRIER: tile.reduce %{{.*}} axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 16384 : i64}
// BARRIER: }
// BARRIER: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
func.func @ring(%x: !tile.view<?x?xf16>, %t: tensor<64x64xf32>, %n: index) -> tensor<64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<64xf32>
  %b = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) {
    tilegpu.async_wait {pending = 0 : i32}
    tilegpu.barrier
    tilegpu.async_copy %x[%i, %c0] bounds[%n, %n] into %b[%c1] {vector = 8 : i32, tile = tensor<64x64xf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>>} : !tile.view<?x?xf16>, !tilegpu.buffer<2, tensor<64x64xf16>, #S>
    tilegpu.async_commit
    %h = tilegpu.local_load %b[%c0] : !tilegpu.buffer<2, tensor<64x64xf16>, #S> -> tensor<64x64xf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>>
    %s = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
    ^bb0(%a: f32, %c: f32):
      %d = arith.addf %a, %c : f32
      tile.yield %d : f32
    }
    %next = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  tilegpu.async_wait {pending = 0 : i32}
  %m = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %c: f32):
    %d = arith.maximumf %a, %c : f32
    tile.yield %d : f32
  }
  %out = arith.addf %r, %m : tensor<64xf32>
  return %out : tensor<64xf32>
}
