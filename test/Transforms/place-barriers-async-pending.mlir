// An exchange over bytes that async copies may still write is refused: a barrier does not
// order async copies, only a wait for them does.
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-place-barriers -verify-diagnostics

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @overwrite(%x: !tile.view<?x?xf16>, %t: tensor<64x64xf32>, %n: index) -> tensor<64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %b = tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64} : !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  tilegpu.async_copy %x[%c0, %c0] bounds[%n, %n] into %b[%c0] {vector = 8 : i32, tile = tensor<64x64xf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>>} : !tile.view<?x?xf16>, !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  tilegpu.async_commit
  tilegpu.barrier
  // expected-error @+1 {{stages in shared memory that async copies may still be writing}}
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %c: f32):
    %d = arith.maximumf %a, %c : f32
    tile.yield %d : f32
  }
  return %m : tensor<64xf32>
}
