// An async copy into bytes that an earlier exchange staged (a ring placed where the loop's
// prologue staged an operand) waits for the threads still reading them: a barrier before it.
// A copy into bytes no access since the last barrier touched needs none.
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-place-barriers | FileCheck %s

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK-LABEL: func.func @overlapping
// CHECK: tile.reduce
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy
func.func @overlapping(%x: !tile.view<?x?xf16>, %t: tensor<64x64xf32>, %n: index) -> tensor<64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %c: f32):
    %d = arith.maximumf %a, %c : f32
    tile.yield %d : f32
  }
  %b = tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64} : !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  tilegpu.async_copy %x[%c0, %c0] bounds[%n, %n] into %b[%c0] {vector = 8 : i32, tile = tensor<64x64xf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>>} : !tile.view<?x?xf16>, !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  tilegpu.async_commit
  tilegpu.async_wait {pending = 0 : i32}
  return %m : tensor<64xf32>
}

// CHECK-LABEL: func.func @apart
// CHECK: tile.reduce
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.async_copy
func.func @apart(%x: !tile.view<?x?xf16>, %t: tensor<64x64xf32>, %n: index) -> tensor<64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %c: f32):
    %d = arith.maximumf %a, %c : f32
    tile.yield %d : f32
  }
  %b = tilegpu.alloc_buffer {tilegpu.smem_offset = 16384 : i64} : !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  tilegpu.async_copy %x[%c0, %c0] bounds[%n, %n] into %b[%c0] {vector = 8 : i32, tile = tensor<64x64xf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>>} : !tile.view<?x?xf16>, !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  tilegpu.async_commit
  tilegpu.async_wait {pending = 0 : i32}
  return %m : tensor<64xf32>
}
