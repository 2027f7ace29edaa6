// A warpgroup mma reads its stages until a warpgroup_wait of 0: an exchange over those bytes
// before the wait is refused, whatever barriers come between
// (place-barriers-warpgroup-wait.mlir: after it they are ordinary accesses).
// RUN: tilecc-opt %s --tilegpu-place-barriers -verify-diagnostics

#SA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#W = #tilegpu.mma<warpsPerBlock = [4, 1]>
#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [1, 4], order = [1, 0]>
#R = #tilegpu.slice<dim = 1, parent = #L>
func.func @before_wait(%c: tensor<64x64xf32, #W>, %t: tensor<64x64xf32, #L>) -> tensor<64xf32, #R>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %a = tilegpu.alloc_buffer {tilegpu.smem_offset = 0 : i64} : !tilegpu.buffer<2, tensor<64x32xf16>, #SA>
  %b = tilegpu.alloc_buffer {tilegpu.smem_offset = 8192 : i64} : !tilegpu.buffer<2, tensor<32x64xf16>, #SB>
  tilegpu.barrier
  %p = tilegpu.warpgroup_mma %a[%c0], %b[%c0], %c : !tilegpu.buffer<2, tensor<64x32xf16>, #SA>, !tilegpu.buffer<2, tensor<32x64xf16>, #SB> -> tensor<64x64xf32, #W>
  tilegpu.barrier
  // expected-error @+1 {{stages in shared memory that a warpgroup mma may still be reading}}
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32, #L> -> tensor<64xf32, #R> {
  ^bb0(%x: f32, %y: f32):
    %d = arith.maximumf %x, %y : f32
    tile.yield %d : f32
  }
  %r = tilegpu.warpgroup_wait %p {pending = 0 : i32} : tensor<64x64xf32, #W>
  return %m : tensor<64xf32, #R>
}

