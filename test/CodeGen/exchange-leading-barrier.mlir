// An exchange marked `tilegpu.needs_no_barrier` (tilegpu-place-barriers found its bytes free)
// starts with its writes; without the mark it synchronizes first. Both keep the barrier
// between their writes and their reads.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [1, 2], order = [1, 0]>
#R = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>
func.func @two_maxima(%z: !tile.view<4xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "two_maxima", tile.entry = "&::two_maxima", tilegpu.num_warps = 2 : i32,
                tilegpu.smem_bytes = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c4, %c64] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<4x64xf32, #L>
  %m = tile.reduce %t axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 0 : i64} : tensor<4x64xf32, #L> -> tensor<4xf32, #R> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  %n = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<4x64xf32, #L> -> tensor<4xf32, #R> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.minnumf %a, %b : f32
    tile.yield %c : f32
  }
  %s = arith.addf %m, %n : tensor<4xf32, #R>
  tilegpu.global_store %s, %z[%c0] bounds [%c4] {vector = 1 : i32} : tensor<4xf32, #R>, !tile.view<4xf32, exclusive>
  return
}

// CHECK: tile_dev::shfl_xor({{.*}}, 4));
// CHECK-NEXT: {{^ *}}float* [[S:v[0-9]+]] = tile_dev::shared_at<float>(0);
// CHECK-SAME: } } __syncthreads();
// CHECK: tile_dev::shfl_xor({{.*}}, 4));
// CHECK-NEXT: __syncthreads(); float* [[T:v[0-9]+]] = tile_dev::shared_at<float>(0);
// CHECK-SAME: } } __syncthreads();
